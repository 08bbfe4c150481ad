package io.podnuma.securemetrics;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a PEM certificate chain and its private key, the pair a {@code kubernetes.io/tls} Secret holds
 * ({@code tls.crt}, {@code tls.key}). Keys may be PKCS#8 ({@code BEGIN PRIVATE KEY}: openssl genpkey, cert-manager
 * with {@code encoding: PKCS8}), PKCS#1 RSA ({@code BEGIN RSA PRIVATE KEY}: cert-manager's default for RSA) or SEC1 EC
 * ({@code BEGIN EC PRIVATE KEY}: cert-manager's default for ECDSA, openssl ecparam); the key must belong to the first
 * certificate. Pure: text in, key material or an exception naming the problem out.
 */
public final class PemKeyMaterial {

    private static final Pattern BLOCK =
            Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*?)-----END \\1-----");
    private static final String RSA_ENCRYPTION = "1.2.840.113549.1.1.1";
    private static final String EC_PUBLIC_KEY = "1.2.840.10045.2.1";
    private static final int OID_TAG = 0x06;
    private static final int SEC1_PARAMETERS_TAG = 0xa0;

    private PemKeyMaterial() {}

    /**
     * @param certSource and {@code keySource} name the texts in messages (e.g. their file paths)
     * @throws IllegalArgumentException saying which text is wrong and what is expected
     */
    public static KeyMaterial parse(String certPem, String certSource, String keyPem, String keySource) {
        List<X509Certificate> chain = new ArrayList<>();
        for (Block b : blocks(certPem)) {
            if (!b.label().equals("CERTIFICATE")) {
                continue;
            }
            try {
                chain.add((X509Certificate)
                        CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(b.der())));
            } catch (CertificateException e) {
                throw new IllegalArgumentException(
                        certSource + ": certificate " + (chain.size() + 1) + " does not parse: " + e.getMessage(), e);
            }
        }
        if (chain.isEmpty()) {
            throw new IllegalArgumentException(
                    certSource + ": no \"-----BEGIN CERTIFICATE-----\" block: expected a PEM certificate chain,"
                            + " server certificate first");
        }
        PrivateKey key =
                key(blocks(keyPem), keySource, chain.get(0).getPublicKey().getAlgorithm());
        requireMatch(key, chain.get(0), certSource, keySource);
        return new KeyMaterial(key, chain);
    }

    private static PrivateKey key(List<Block> blocks, String source, String algorithm) {
        for (Block b : blocks) {
            byte[] pkcs8 = switch (b.label()) {
                case "PRIVATE KEY" -> b.der();
                // PKCS#8 is PKCS#1 wrapped with the algorithm: version 0, rsaEncryption, the key.
                case "RSA PRIVATE KEY" ->
                    Der.sequence(
                            Der.integer(0),
                            Der.sequence(Der.oid(RSA_ENCRYPTION), Der.nullValue()),
                            Der.octetString(b.der()));
                case "ENCRYPTED PRIVATE KEY" ->
                    throw new IllegalArgumentException(
                            source + ": the private key is encrypted: give it unencrypted (the Secret protects it)");
                case "EC PRIVATE KEY" -> sec1ToPkcs8(b.der(), source);
                default -> null;
            };
            if (pkcs8 == null) {
                continue;
            }
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
            } catch (GeneralSecurityException e) {
                throw new IllegalArgumentException(
                        source + ": the private key is not a " + algorithm + " key in PKCS#8, PKCS#1 or SEC1: "
                                + e.getMessage(),
                        e);
            }
        }
        throw new IllegalArgumentException(source + ": no \"-----BEGIN PRIVATE KEY-----\" (PKCS#8),"
                + " \"-----BEGIN RSA PRIVATE KEY-----\" (PKCS#1) or \"-----BEGIN EC PRIVATE KEY-----\" (SEC1) block");
    }

    /**
     * PKCS#8 is SEC1 (RFC 5915: version 1, the private key, [0] the curve, [1] the public key) wrapped with the
     * algorithm id-ecPublicKey and the curve; the curve must therefore be read out of the SEC1 key first. The SEC1
     * element goes in whole: the JDK's EC key reader skips its [0] and [1].
     */
    private static byte[] sec1ToPkcs8(byte[] sec1, String source) {
        String what = source + ": the SEC1 \"EC PRIVATE KEY\" ";
        Optional<byte[]> curve;
        try {
            curve = Der.children(sec1).stream()
                    .filter(f -> Der.tag(f) == SEC1_PARAMETERS_TAG)
                    .findFirst()
                    .map(Der::children)
                    .filter(p -> p.size() == 1 && Der.tag(p.get(0)) == OID_TAG)
                    .map(p -> p.get(0));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    what + "is not readable DER (" + e.getMessage()
                            + "): expected the output of `openssl ecparam -genkey -noout` or cert-manager's tls.key",
                    e);
        }
        if (curve.isEmpty()) {
            throw new IllegalArgumentException(what
                    + "names no curve (its parameters [0] are missing or not a named curve): write it with the"
                    + " curve's name, e.g. `openssl ec -in tls.key -param_enc named_curve`");
        }
        return Der.sequence(Der.integer(0), Der.sequence(Der.oid(EC_PUBLIC_KEY), curve.get()), Der.octetString(sec1));
    }

    private static void requireMatch(PrivateKey key, X509Certificate leaf, String certSource, String keySource) {
        String alg = key.getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256with" + key.getAlgorithm();
        try {
            byte[] probe = "podnuma key check".getBytes(StandardCharsets.US_ASCII);
            Signature s = Signature.getInstance(alg);
            s.initSign(key);
            s.update(probe);
            byte[] sig = s.sign();
            Signature v = Signature.getInstance(alg);
            v.initVerify(leaf.getPublicKey());
            v.update(probe);
            if (v.verify(sig)) {
                return;
            }
        } catch (GeneralSecurityException e) {
            // falls through to the message below
        }
        throw new IllegalArgumentException(
                keySource + ": the private key does not belong to the first certificate of " + certSource);
    }

    private record Block(String label, byte[] der) {}

    private static List<Block> blocks(String pem) {
        List<Block> out = new ArrayList<>();
        Matcher m = BLOCK.matcher(pem);
        while (m.find()) {
            out.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2))));
        }
        return out;
    }
}
