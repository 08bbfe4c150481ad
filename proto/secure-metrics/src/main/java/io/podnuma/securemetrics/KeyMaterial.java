package io.podnuma.securemetrics;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/** A private key and its certificate chain, leaf first: what a TLS server presents. */
public record KeyMaterial(PrivateKey key, List<X509Certificate> chain) {

    public KeyMaterial {
        Objects.requireNonNull(key, "key");
        chain = List.copyOf(chain);
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("a certificate chain needs at least the server's certificate");
        }
    }

    public X509Certificate leaf() {
        return chain.get(0);
    }
}
