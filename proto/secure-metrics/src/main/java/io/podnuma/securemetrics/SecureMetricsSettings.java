package io.podnuma.securemetrics;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the HTTPS metrics endpoint gets its certificate and how long it reuses a decision.
 *
 * @param certFile with {@code keyFile}, a PEM pair (a mounted {@code kubernetes.io/tls} Secret), reloaded when it
 *     changes; both empty: a self-signed certificate made at start
 * @param cacheTtl how long an allowed or forbidden decision for one token is reused
 * @param reviewRate how many scrapes with a token that has no cached decision may reach the API server
 */
public record SecureMetricsSettings(
        Optional<Path> certFile, Optional<Path> keyFile, Duration cacheTtl, ReviewRate reviewRate) {

    public static final Duration MAX_TTL = Duration.ofMinutes(10);

    public SecureMetricsSettings {
        Objects.requireNonNull(certFile, "certFile");
        Objects.requireNonNull(keyFile, "keyFile");
        Objects.requireNonNull(cacheTtl, "cacheTtl");
        Objects.requireNonNull(reviewRate, "reviewRate");
        if (certFile.isPresent() != keyFile.isPresent()) {
            throw new IllegalArgumentException("metricsCertFile and metricsKeyFile go together: set both (a"
                    + " certificate and its key) or neither (a self-signed certificate made at start)");
        }
        if (cacheTtl.isNegative() || cacheTtl.compareTo(MAX_TTL) > 0) {
            throw new IllegalArgumentException("metricsAuthCacheTtl " + cacheTtl + ": allowed 0s to 10m");
        }
    }

    /** With {@link ReviewRate#DEFAULT}: the agent's and the operator's settings do not expose the rate yet. */
    public SecureMetricsSettings(Optional<Path> certFile, Optional<Path> keyFile, Duration cacheTtl) {
        this(certFile, keyFile, cacheTtl, ReviewRate.DEFAULT);
    }

    public static SecureMetricsSettings selfSigned() {
        return new SecureMetricsSettings(Optional.empty(), Optional.empty(), MetricsGate.DEFAULT_TTL);
    }

    public SecureMetricsSettings withReviewRate(ReviewRate rate) {
        return new SecureMetricsSettings(certFile, keyFile, cacheTtl, rate);
    }
}
