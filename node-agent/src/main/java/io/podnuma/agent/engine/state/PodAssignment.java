package io.podnuma.agent.engine.state;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.memory.MemoryBlock;
import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.engine.topology.NumaMask;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What one admitted pod holds.
 *
 * @param numaAffinity the NUMA nodes the topology manager chose for the pod (pod scope); empty: none
 * @param bubble the CPUs taken for the pod budget (pod-level placement), else empty
 * @param podSharedPool the bubble minus the exclusive slices of sidecars and app containers
 * @param podMemory the memory blocks of the pod budget (pod-level placement), else empty
 * @param containers in spec order: init containers and sidecars, app containers, ephemeral containers; a
 *     removed container is no longer listed
 */
public record PodAssignment(
        PodRef ref,
        PodQos qos,
        PodPlacement placement,
        NumaMask numaAffinity,
        CpuSet bubble,
        CpuSet podSharedPool,
        List<MemoryBlock> podMemory,
        List<ContainerAssignment> containers) {

    public PodAssignment {
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(qos, "qos");
        Objects.requireNonNull(placement, "placement");
        Objects.requireNonNull(numaAffinity, "numaAffinity");
        Objects.requireNonNull(bubble, "bubble");
        Objects.requireNonNull(podSharedPool, "podSharedPool");
        podMemory = List.copyOf(podMemory);
        containers = List.copyOf(containers);
        if (!podSharedPool.isSubsetOf(bubble)) {
            throw new IllegalArgumentException(
                    "pod " + ref + ": shared pool " + podSharedPool + " is not inside its bubble " + bubble);
        }
        Set<String> names = new HashSet<>();
        for (ContainerAssignment c : containers) {
            if (!names.add(c.name())) {
                throw new IllegalArgumentException("pod " + ref + ": container " + c.name() + " is listed twice");
            }
            if (!bubble.isEmpty()
                    && c.kind() != AssignmentKind.NODE_SHARED
                    && !c.cpus().isSubsetOf(bubble)) {
                throw new IllegalArgumentException("pod " + ref + ": container " + c.name() + " CPUs " + c.cpus()
                        + " are outside the pod's bubble " + bubble);
            }
        }
    }

    /** Whether the pod holds a bubble: its containers' CPUs are then slices of it, not node allocations. */
    public boolean hasBubble() {
        return !bubble.isEmpty();
    }

    public Optional<ContainerAssignment> container(String name) {
        return containers.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /** This pod without one container's entry. */
    public PodAssignment withoutContainer(String name) {
        return new PodAssignment(
                ref,
                qos,
                placement,
                numaAffinity,
                bubble,
                podSharedPool,
                podMemory,
                containers.stream().filter(c -> !c.name().equals(name)).toList());
    }

    /** Every CPU the pod keeps away from the node pool: its bubble, or its containers' exclusive CPUs. */
    public CpuSet exclusiveCpus() {
        if (hasBubble()) {
            return bubble;
        }
        CpuSet.Builder b = CpuSet.builder();
        containers.stream().filter(c -> c.kind() == AssignmentKind.EXCLUSIVE).forEach(c -> b.addAll(c.cpus()));
        return b.build();
    }
}
