package io.podnuma.agent.engine.pod;

import io.podnuma.agent.engine.memory.MemoryResource;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Who qualifies for what (spec §1): pod QoS with and without pod-level resources, the pod's CPU and memory
 * budgets, and exclusive CPUs or memory per container.
 */
public final class PodRules {

    private PodRules() {}

    /**
     * With pod-level resources, decided by the pod budget alone: Guaranteed iff CPU and memory requests equal
     * their (non-zero) limits. Without, classic: Guaranteed iff every init and app container is; BestEffort
     * iff no container asks for or limits CPU or memory. Ephemeral containers never count.
     */
    public static PodQos qos(Pod pod) {
        if (pod.hasPodLevelResources()) {
            Resources budget = pod.podResources().orElseThrow();
            if (budget.guaranteedCpuAndMemory()) {
                return PodQos.GUARANTEED;
            }
            return anyNonZero(budget) ? PodQos.BURSTABLE : PodQos.BEST_EFFORT;
        }
        boolean allGuaranteed = true;
        boolean anyResource = false;
        for (Container c : pod.allContainers()) {
            if (c.type() == ContainerType.EPHEMERAL) {
                continue;
            }
            allGuaranteed &= c.resources().guaranteedCpuAndMemory();
            anyResource |= anyNonZero(c.resources());
        }
        if (!anyResource) {
            return PodQos.BEST_EFFORT;
        }
        return allGuaranteed ? PodQos.GUARANTEED : PodQos.BURSTABLE;
    }

    private static boolean anyNonZero(Resources r) {
        return nonZero(r.requests()) || nonZero(r.limits());
    }

    private static boolean nonZero(ResourceList l) {
        return (l.cpuMillis() != null && l.cpuMillis() > 0)
                || (l.memoryBytes().isPresent() && l.memoryBytes().getAsLong() > 0);
    }

    /**
     * The pod CPU budget {@code P} in whole CPUs: the pod-level CPU request of a Guaranteed pod with pod-level
     * resources when it is a whole number, else 0 (no bubble).
     */
    public static int cpuBudget(Pod pod) {
        if (!pod.hasPodLevelResources() || qos(pod) != PodQos.GUARANTEED) {
            return 0;
        }
        long millis = pod.podResources().orElseThrow().effectiveRequests().cpuMillis();
        return millis % 1000 == 0 ? Math.toIntExact(millis / 1000) : 0;
    }

    /** The pod memory budget: each of {@code memory} and {@code hugepages-*} in the pod-level requests. */
    public static SortedMap<MemoryResource, Long> memoryBudget(Pod pod) {
        if (!pod.hasPodLevelResources()) {
            return new TreeMap<>();
        }
        return positive(pod.podResources().orElseThrow().effectiveRequests().memory());
    }

    /**
     * Exclusive CPUs for a container: the pod is Guaranteed and the container has its own non-zero CPU and
     * memory requests equal to limits, with whole-number CPU. Returns the CPU count, 0 when it does not
     * qualify. Ephemeral containers never qualify.
     */
    public static int exclusiveCpus(Pod pod, Container c) {
        if (!exclusiveMemory(pod, c)) {
            return 0;
        }
        long millis = c.resources().limits().cpuMillis();
        return millis % 1000 == 0 ? Math.toIntExact(millis / 1000) : 0;
    }

    /** Exclusive memory for a container: the same test as {@link #exclusiveCpus} without whole-number CPU. */
    public static boolean exclusiveMemory(Pod pod, Container c) {
        return c.type() != ContainerType.EPHEMERAL
                && c.resources().guaranteedCpuAndMemory()
                && qos(pod) == PodQos.GUARANTEED;
    }

    /** The container's own memory requests ({@code memory} and {@code hugepages-*}), non-zero entries only. */
    public static SortedMap<MemoryResource, Long> memoryRequest(Container c) {
        return positive(c.resources().effectiveRequests().memory());
    }

    private static SortedMap<MemoryResource, Long> positive(Map<MemoryResource, Long> m) {
        TreeMap<MemoryResource, Long> out = new TreeMap<>();
        m.forEach((k, v) -> {
            if (v > 0) {
                out.put(k, v);
            }
        });
        return out;
    }
}
