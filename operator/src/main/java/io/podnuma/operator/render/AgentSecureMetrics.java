package io.podnuma.operator.render;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The agents serve {@code /metrics} over HTTPS with a token check (their {@code metricsSecurity: https}).
 *
 * @param certSecret a {@code kubernetes.io/tls} Secret in the operator's namespace, mounted into the agent and read
 *     as its serving certificate ({@code tls.crt}, {@code tls.key}); empty: each agent makes a self-signed one
 * @param cacheTtl how long an agent reuses the answer for one scrape token; empty: the agent's default (1m)
 * @param scrapeTokenSecret a ServiceAccount token Secret (key {@code token}) in the operator's namespace that the
 *     agents' ServiceMonitors scrape with; empty: Prometheus's own ServiceAccount token file
 */
public record AgentSecureMetrics(
        Optional<String> certSecret, Optional<Duration> cacheTtl, Optional<String> scrapeTokenSecret) {

    public static final Duration MAX_CACHE_TTL = Duration.ofMinutes(10);

    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    public AgentSecureMetrics {
        Objects.requireNonNull(certSecret, "certSecret");
        Objects.requireNonNull(cacheTtl, "cacheTtl");
        Objects.requireNonNull(scrapeTokenSecret, "scrapeTokenSecret");
        requireSecretName("certSecret", certSecret);
        requireSecretName("scrapeTokenSecret", scrapeTokenSecret);
        cacheTtl.filter(d -> d.isNegative() || d.compareTo(MAX_CACHE_TTL) > 0).ifPresent(d -> {
            throw new IllegalArgumentException("cacheTtl " + d.toMillis() + "ms: allowed 0s..10m");
        });
    }

    /** Self-signed certificates, the agent's default cache, Prometheus's own token. */
    public static AgentSecureMetrics selfSigned() {
        return new AgentSecureMetrics(Optional.empty(), Optional.empty(), Optional.empty());
    }

    private static void requireSecretName(String what, Optional<String> name) {
        name.filter(s -> s.length() > 253 || !DNS_SUBDOMAIN.matcher(s).matches())
                .ifPresent(s -> {
                    throw new IllegalArgumentException(what + " '" + s + "': allowed a Secret name (DNS subdomain)");
                });
    }
}
