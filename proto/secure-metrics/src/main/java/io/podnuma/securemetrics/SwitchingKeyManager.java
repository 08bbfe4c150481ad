package io.podnuma.securemetrics;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Presents whatever pair the {@link KeySource} holds now. Each pair gets its own alias, and the last few are kept,
 * so a handshake that picked an alias gets that alias's key and chain even when a rotation lands mid-handshake.
 */
final class SwitchingKeyManager extends X509ExtendedKeyManager {

    private static final int KEEP = 4;

    private final KeySource source;
    private final Map<String, KeyMaterial> aliases = new LinkedHashMap<>();
    private KeyMaterial last;
    private int generation;

    SwitchingKeyManager(KeySource source) {
        this.source = Objects.requireNonNull(source, "source");
    }

    private synchronized String aliasFor(String keyType) {
        KeyMaterial now = source.current();
        if (now != last) {
            last = now;
            generation++;
            aliases.put("serving-" + generation, now);
            if (aliases.size() > KEEP) {
                aliases.remove(aliases.keySet().iterator().next());
            }
        }
        return keyType == null || keyType.equals(now.key().getAlgorithm()) ? "serving-" + generation : null;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return aliasFor(keyType);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return aliasFor(keyType);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        String alias = aliasFor(keyType);
        return alias == null ? null : new String[] {alias};
    }

    @Override
    public synchronized X509Certificate[] getCertificateChain(String alias) {
        KeyMaterial m = aliases.get(alias);
        return m == null ? null : m.chain().toArray(X509Certificate[]::new);
    }

    @Override
    public synchronized PrivateKey getPrivateKey(String alias) {
        KeyMaterial m = aliases.get(alias);
        return m == null ? null : m.key();
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return null;
    }
}
