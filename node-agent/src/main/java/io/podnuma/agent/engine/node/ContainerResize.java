package io.podnuma.agent.engine.node;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.memory.MemoryBlock;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.pod.Container;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.pod.PodRules;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An in-place resize of a pod placed per container (a Guaranteed pod without a budget): each container whose whole
 * CPUs changed keeps every CPU it holds and grows beside them on its NUMA nodes, or gives back CPUs keeping whole the
 * cores it holds whole ({@link ResizeCpus}). All or nothing: one container that cannot be resized in place leaves the whole pod as it
 * was. What cannot be done in place: a container going from shared CPUs to exclusive ones or back, and a change of
 * memory the memory manager ({@code Static}) pinned.
 */
final class ContainerResize {

    private final Managers m;
    private final ResizeCpus cpus;

    ContainerResize(Managers m) {
        this.m = m;
        this.cpus = new ResizeCpus(m);
    }

    /** {@code held}: the pod's assignment, without a bubble. */
    ResizeResult resize(NodeState state, PodAssignment held, Pod resized) {
        NodeState now = state;
        List<ContainerAssignment> containers = new ArrayList<>();
        List<String> changes = new ArrayList<>();
        CpuSet added = CpuSet.empty();
        CpuSet returned = CpuSet.empty();
        try {
            for (ContainerAssignment c : held.containers()) {
                Optional<Container> spec = resized.allContainers().stream()
                        .filter(x -> x.name().equals(c.name()))
                        .findFirst();
                int wanted = spec.map(x -> m.pinsCpus() ? PodRules.exclusiveCpus(resized, x) : 0)
                        .orElse(c.kind() == AssignmentKind.EXCLUSIVE ? c.cpus().size() : 0);
                int had = c.kind() == AssignmentKind.EXCLUSIVE ? c.cpus().size() : 0;
                String what = "pod " + resized.ref() + " container " + c.name() + ": cpu " + had + " → " + wanted;
                if (spec.isPresent()) {
                    memoryKept(resized, c, spec.get(), what);
                }
                if (wanted == had) {
                    containers.add(c);
                    continue;
                }
                if (had == 0 || wanted == 0) {
                    throw new ResizeCpus.Refused(
                            resized,
                            RejectionReason.UNEXPECTED_ADMISSION_ERROR,
                            what + ": a container on shared CPUs cannot take exclusive ones in place, nor give its"
                                    + " exclusive CPUs up (whole CPUs with requests equal to limits hold exclusive"
                                    + " CPUs); recreate the pod",
                            keeps(c));
                }
                CpuSet to;
                if (wanted > had) {
                    CpuSet nodes = held.numaAffinity().isEmpty()
                            ? cpus.nodesOf(c.cpus())
                            : CpuSet.of(held.numaAffinity().toArray());
                    CpuSet more = cpus.grow(now, resized, nodes, wanted - had, what, c.cpus());
                    to = c.cpus().union(more);
                    added = added.union(more);
                    now = now.withPod(now.sharedPool().difference(more), withContainer(held, containers, c, to));
                } else {
                    CpuSet gone = cpus.giveBack(resized, c.cpus(), had - wanted, what, c.cpus());
                    to = c.cpus().difference(gone);
                    returned = returned.union(gone);
                    now = now.withPod(now.sharedPool().union(gone), withContainer(held, containers, c, to));
                }
                containers.add(new ContainerAssignment(c.name(), c.type(), c.kind(), to, c.memory(), c.memoryNodes()));
                changes.add("container " + c.name() + " " + had + " → " + wanted + " CPUs");
            }
        } catch (ResizeCpus.Refused e) {
            return e.result();
        }
        if (changes.isEmpty()) {
            return new ResizeResult.Unchanged(held);
        }
        PodAssignment pod = withContainers(held, containers);
        return new ResizeResult.Resized(
                now.withPod(now.sharedPool(), pod), pod, String.join(", ", changes), added, returned);
    }

    /** Refuses a change of the container's memory that the memory manager pinned. */
    private void memoryKept(Pod resized, ContainerAssignment c, Container spec, String what) throws ResizeCpus.Refused {
        if (!m.pinsMemory() || c.memory().isEmpty()) {
            return;
        }
        SortedMap<MemoryResource, Long> had = new TreeMap<>();
        for (MemoryBlock b : c.memory()) {
            had.merge(b.resource(), b.size(), Long::sum);
        }
        SortedMap<MemoryResource, Long> wanted = PodRules.memoryRequest(spec);
        if (!had.equals(wanted)) {
            throw new ResizeCpus.Refused(
                    resized,
                    RejectionReason.UNEXPECTED_ADMISSION_ERROR,
                    what + ", memory " + Managers.describe(0, had, List.of()) + " → "
                            + Managers.describe(0, wanted, List.of()) + ": the memory manager (Static) pinned the"
                            + " container's memory to its NUMA nodes, and pinned memory does not resize in place",
                    keeps(c));
        }
    }

    /** What a container refused keeps, for the message's end. */
    private static Object keeps(ContainerAssignment c) {
        return c.kind() == AssignmentKind.NODE_SHARED ? "the node's shared pool" : c.cpus();
    }

    /**
     * The pod with the containers resized so far, {@code c} at {@code to} and the rest as held: a state that books
     * every CPU once while the next container grows.
     */
    private static PodAssignment withContainer(
            PodAssignment held, List<ContainerAssignment> done, ContainerAssignment c, CpuSet to) {
        List<ContainerAssignment> all = new ArrayList<>(done);
        all.add(new ContainerAssignment(c.name(), c.type(), c.kind(), to, c.memory(), c.memoryNodes()));
        held.containers().stream().skip(all.size()).forEach(all::add);
        return withContainers(held, all);
    }

    private static PodAssignment withContainers(PodAssignment held, List<ContainerAssignment> containers) {
        return new PodAssignment(
                held.ref(),
                held.qos(),
                held.placement(),
                held.numaAffinity(),
                held.bubble(),
                held.podSharedPool(),
                held.podMemory(),
                containers);
    }
}
