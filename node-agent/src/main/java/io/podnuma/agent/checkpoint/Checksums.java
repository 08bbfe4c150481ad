package io.podnuma.agent.checkpoint;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/** SHA-256 digests in the {@code sha256:<hex>} form every podnuma file uses. */
final class Checksums {

    private static final Pattern SHA256 = Pattern.compile("sha256:[0-9a-f]{64}");

    private Checksums() {}

    static String sha256(String text) {
        return sha256(text.getBytes(StandardCharsets.UTF_8));
    }

    static String sha256(byte[] bytes) {
        try {
            return "sha256:"
                    + HexFormat.of()
                            .formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime must provide SHA-256", e);
        }
    }

    static boolean isSha256(String value) {
        return SHA256.matcher(value).matches();
    }
}
