package io.podnuma.oci;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/** A content digest as OCI writes it, {@code sha256:<64 hex>}; the blob's file name is the hex part. */
public record Digest(String hex) {
    private static final Pattern HEX = Pattern.compile("[0-9a-f]{64}");

    public Digest {
        if (!HEX.matcher(hex).matches()) {
            throw new IllegalArgumentException("not a sha256 hex digest: " + hex);
        }
    }

    public static Digest parse(String oci) {
        if (!oci.startsWith("sha256:")) {
            throw new IllegalArgumentException("not a sha256 digest: " + oci);
        }
        return new Digest(oci.substring("sha256:".length()));
    }

    public static Digest of(byte[] content) {
        return new Digest(HexFormat.of().formatHex(sha256().digest(content)));
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return "sha256:" + hex;
    }
}
