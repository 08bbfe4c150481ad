package io.podnuma.securemetrics;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

/** A bearer token from an {@code Authorization} header. {@link #toString()} never shows it. */
public record BearerToken(String value) {

    /** Far above a service-account JWT (about 1 KiB); keeps a giant header from reaching the API server. */
    static final int MAX_LENGTH = 16 * 1024;

    public BearerToken {
        Objects.requireNonNull(value, "value");
    }

    /**
     * The token of {@code Authorization: Bearer <token>} (the scheme is case-insensitive, RFC 7235); empty when the
     * header is missing, has another scheme, an empty or oversized token, or characters no token has.
     */
    public static Optional<BearerToken> fromHeader(String authorization) {
        if (authorization == null) {
            return Optional.empty();
        }
        String h = authorization.strip();
        if (h.length() < 7 || !h.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        String token = h.substring(7).strip();
        if (token.isEmpty() || token.length() > MAX_LENGTH || !token.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            return Optional.empty();
        }
        return Optional.of(new BearerToken(token));
    }

    /** The cache key: a digest, so the cache holds no usable token. */
    String digest() {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    @Override
    public String toString() {
        return "BearerToken[" + value.length() + " characters]";
    }
}
