package io.podnuma.securemetrics;

/** Where the serving key and certificate come from; asked on every TLS handshake, so it must be quick. */
@FunctionalInterface
public interface KeySource {

    KeyMaterial current();

    /** A pair that never changes (the self-signed one). */
    static KeySource fixed(KeyMaterial material) {
        return () -> material;
    }
}
