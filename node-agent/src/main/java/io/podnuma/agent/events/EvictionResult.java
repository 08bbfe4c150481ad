package io.podnuma.agent.events;

import io.podnuma.agent.engine.pod.PodRef;

/** How an eviction ended. */
public sealed interface EvictionResult {

    /** The Eviction API accepted it: the pod is being deleted with its grace period. */
    record Evicted(PodRef pod) implements EvictionResult {}

    /**
     * Nothing to evict: the pod no longer exists, is already terminating, or its name now belongs to a different pod
     * (another UID), which is left alone.
     */
    record AlreadyGone(PodRef pod, String detail) implements EvictionResult {}

    /**
     * Still refused (HTTP 429, normally a PodDisruptionBudget) after {@code attempts} tries; {@code message} is the
     * API server's last explanation (it names the budget).
     */
    record Blocked(PodRef pod, int attempts, String message) implements EvictionResult {}

    /** Given up for another reason (forbidden, invalid, API errors after retries, shut down). */
    record Failed(PodRef pod, String message) implements EvictionResult {}

    PodRef pod();
}
