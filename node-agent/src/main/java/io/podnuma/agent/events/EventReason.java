package io.podnuma.agent.events;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The {@code reason} of an Event: one CamelCase word that tools and alerts match on. The agent's own reasons are the
 * constants below; admission refusals carry the engine's upstream reason unchanged ({@link #upstream(String)}, e.g.
 * {@code TopologyAffinityError}, {@code SMTAlignmentError}) so they read like the kubelet's.
 */
public record EventReason(String value) {

    /** Longest reason the API accepts (events.k8s.io/v1 validation limit). */
    public static final int MAX_LENGTH = 128;

    private static final Pattern CAMEL_CASE = Pattern.compile("[A-Z][A-Za-z0-9]*");

    /** Normal, pod: the pod's containers got their exclusive CPUs and NUMA-aligned memory. */
    public static final EventReason RESOURCES_PINNED = new EventReason("ResourcesPinned");

    /** Warning, pod: a container's cpuset or mems was changed by someone else and has been written back. */
    public static final EventReason CPUSET_DRIFT_REPAIRED = new EventReason("CpusetDriftRepaired");

    /** Warning, pod: writing a container's cpuset or mems failed after retries; the container is not pinned. */
    public static final EventReason CPUSET_WRITE_FAILED = new EventReason("CpusetWriteFailed");

    /** Warning, Node: the checkpoint was corrupt or did not match the topology; set aside, state rebuilt. */
    public static final EventReason CHECKPOINT_REJECTED = new EventReason("CheckpointRejected");

    /** Warning, pod: the agent evicted the pod through the Eviction API (admission {@code Evict}). */
    public static final EventReason POD_EVICTED = new EventReason("PodEvicted");

    /** Warning, pod: an eviction was refused (HTTP 429, usually a PodDisruptionBudget); it will be retried. */
    public static final EventReason EVICTION_BLOCKED = new EventReason("EvictionBlocked");

    /** Warning, pod: an eviction failed for another reason (forbidden, API errors) and was given up. */
    public static final EventReason EVICTION_FAILED = new EventReason("EvictionFailed");

    /** Warning, Node: the kubelet runs a CPU, memory or topology manager policy; the agent writes nothing. */
    public static final EventReason KUBELET_CONFLICT = new EventReason("KubeletConflict");

    /** Warning, Node: a policy change conflicts with running pods (e.g. reserved CPUs now exclusive); pods named. */
    public static final EventReason POLICY_CONFLICT = new EventReason("PolicyConflict");

    public EventReason {
        Objects.requireNonNull(value, "reason");
        if (value.length() > MAX_LENGTH || !CAMEL_CASE.matcher(value).matches()) {
            throw new IllegalArgumentException("event reason '" + value
                    + "' must be one CamelCase word: an upper-case letter, then letters and digits, at most "
                    + MAX_LENGTH + " characters");
        }
    }

    /** An admission reason from the engine (the kubelet's wording), passed through unchanged. */
    public static EventReason upstream(String reason) {
        return new EventReason(reason);
    }

    @Override
    public String toString() {
        return value;
    }
}
