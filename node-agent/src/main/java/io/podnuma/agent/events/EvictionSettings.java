package io.podnuma.agent.events;

import java.time.Duration;

/**
 * Tuning of {@link PodEvictor}.
 *
 * @param maxBlockedAttempts tries refused with HTTP 429 before the result is {@link EvictionResult.Blocked}
 * @param blockedBackoff wait after the first refusal, doubled after each further one up to {@code maxBackoff}
 * @param maxErrorAttempts tries that fail with no answer, a conflict or a server error before giving up
 * @param errorBackoff wait after the first such failure, doubled likewise
 * @param maxBackoff longest wait between tries
 * @param requestTimeout longest wait for one API answer
 */
public record EvictionSettings(
        int maxBlockedAttempts,
        Duration blockedBackoff,
        int maxErrorAttempts,
        Duration errorBackoff,
        Duration maxBackoff,
        Duration requestTimeout) {

    /** 6 tries against a budget, waiting 5, 10, 20, 40 and 60 s between them; 4 tries on errors, from 1 s. */
    public static EvictionSettings defaults() {
        return new EvictionSettings(
                6, Duration.ofSeconds(5), 4, Duration.ofSeconds(1), Duration.ofSeconds(60), Duration.ofSeconds(30));
    }

    public EvictionSettings {
        EventRecorderSettings.positive(maxBlockedAttempts, "maxBlockedAttempts");
        EventRecorderSettings.positive(maxErrorAttempts, "maxErrorAttempts");
        EventRecorderSettings.positive(blockedBackoff, "blockedBackoff");
        EventRecorderSettings.positive(errorBackoff, "errorBackoff");
        EventRecorderSettings.positive(maxBackoff, "maxBackoff");
        EventRecorderSettings.positive(requestTimeout, "requestTimeout");
    }

    /** Backoff before try {@code attempt + 1}, after {@code attempt} failed ones of a kind starting at {@code first}. */
    Duration backoff(Duration first, int attempt) {
        Duration wait = first;
        for (int i = 1; i < attempt && wait.compareTo(maxBackoff) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        return wait.compareTo(maxBackoff) > 0 ? maxBackoff : wait;
    }
}
