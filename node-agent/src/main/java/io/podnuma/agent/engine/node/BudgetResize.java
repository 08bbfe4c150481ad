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
import io.podnuma.agent.engine.topology.NumaMask;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An in-place resize of a pod budget held as a bubble: the pod keeps every CPU it holds. Growing takes the difference
 * from the free CPUs of the pod's NUMA nodes (only there under {@code single-numa-node} and {@code restricted}; then
 * elsewhere under {@code best-effort} and {@code none}), as the CPU manager takes CPUs (whole cores first); shrinking
 * gives back CPUs of the pod shared pool ({@link ResizeCpus#giveBack}: the cores it holds whole kept whole, the highest
 * first), never an exclusive slice and never
 * the pool's last CPU while a container shares it. The containers' exclusive slices stay as they are; the containers on
 * the pod shared pool follow it. What cannot be done in place is refused with the pod left as it is: a change of a
 * container's own exclusive request, of a budget's memory pinned by the memory manager, or to no CPUs at all.
 */
final class BudgetResize {

    private final Managers m;
    private final ResizeCpus cpus;
    private final boolean podLevelResources;

    BudgetResize(Managers m, boolean podLevelResources) {
        this.m = m;
        this.cpus = new ResizeCpus(m);
        this.podLevelResources = podLevelResources;
    }

    /** {@code held}: the pod's assignment, with a bubble. */
    ResizeResult resize(NodeState state, PodAssignment held, Pod resized) {
        Pod effective = podLevelResources ? resized : resized.withoutPodResources();
        int wanted = m.pinsCpus() && effective.hasPodLevelResources() ? PodRules.cpuBudget(effective) : 0;
        int have = held.bubble().size();
        String what = "pod " + resized.ref() + " budget";
        Optional<String> fixed = changedBeyondTheBudget(effective, held);
        if (fixed.isPresent()) {
            return infeasible(resized, RejectionReason.UNEXPECTED_ADMISSION_ERROR, what + ": " + fixed.get(), held);
        }
        if (wanted == 0) {
            return infeasible(
                    resized,
                    RejectionReason.UNEXPECTED_ADMISSION_ERROR,
                    what + ": cpu " + have + " → no whole CPUs: a budget of exclusive CPUs cannot become a shared one"
                            + " in place; recreate the pod",
                    held);
        }
        if (wanted == have) {
            return new ResizeResult.Unchanged(held);
        }
        try {
            return wanted > have
                    ? grow(state, held, resized, wanted - have)
                    : shrink(state, held, resized, have - wanted);
        } catch (ResizeCpus.Refused e) {
            return e.result();
        }
    }

    /** What changed besides the budget's CPU count, if anything: such a change needs the pod recreated. */
    private Optional<String> changedBeyondTheBudget(Pod resized, PodAssignment held) {
        for (ContainerAssignment c : held.containers()) {
            Optional<Container> now = resized.allContainers().stream()
                    .filter(x -> x.name().equals(c.name()))
                    .findFirst();
            if (now.isEmpty()) {
                continue;
            }
            int exclusive = PodRules.exclusiveCpus(resized, now.get());
            int had = c.kind() == AssignmentKind.EXCLUSIVE ? c.cpus().size() : 0;
            if (exclusive != had) {
                return Optional.of(
                        "container " + c.name() + " asks for " + exclusive + " exclusive CPUs and holds " + had
                                + ": only the pod budget's CPUs resize in place, a container's own exclusive CPUs do not");
            }
        }
        if (m.pinsMemory() && !held.podMemory().isEmpty()) {
            SortedMap<MemoryResource, Long> had = new TreeMap<>();
            for (MemoryBlock b : held.podMemory()) {
                had.merge(b.resource(), b.size(), Long::sum);
            }
            SortedMap<MemoryResource, Long> wanted = PodRules.memoryBudget(resized);
            if (!had.equals(wanted)) {
                return Optional.of("memory " + Managers.describe(0, had, List.of()) + " → "
                        + Managers.describe(0, wanted, List.of()) + ": the memory manager"
                        + " (Static) pinned the budget's memory to its NUMA nodes, and pinned memory does not resize in"
                        + " place");
            }
        }
        return Optional.empty();
    }

    private ResizeResult grow(NodeState state, PodAssignment held, Pod resized, int extra) throws ResizeCpus.Refused {
        CpuSet nodes = held.numaAffinity().isEmpty()
                ? cpus.nodesOf(held.bubble())
                : CpuSet.of(held.numaAffinity().toArray());
        String what = "pod " + resized.ref() + " budget: cpu " + held.bubble().size() + " → "
                + (held.bubble().size() + extra);
        CpuSet added = cpus.grow(state, resized, nodes, extra, what, held.bubble());
        CpuSet bubble = held.bubble().union(added);
        NumaMask affinity = cpus.strict() || held.numaAffinity().isEmpty()
                ? held.numaAffinity()
                : NumaMask.of(cpus.nodesOf(bubble).toArray());
        PodAssignment grown = withBubble(held, bubble, held.podSharedPool().union(added), affinity);
        return new ResizeResult.Resized(
                state.withPod(state.sharedPool().difference(added), grown),
                grown,
                "budget " + held.bubble().size() + " → " + bubble.size() + " CPUs",
                added,
                CpuSet.empty());
    }

    private ResizeResult shrink(NodeState state, PodAssignment held, Pod resized, int fewer) throws ResizeCpus.Refused {
        CpuSet pool = held.podSharedPool();
        boolean shared = held.containers().stream().anyMatch(c -> c.kind() == AssignmentKind.POD_SHARED);
        int mayGo = shared ? pool.size() - 1 : pool.size();
        String what = "pod " + resized.ref() + " budget: cpu " + held.bubble().size() + " → "
                + (held.bubble().size() - fewer);
        if (fewer > mayGo) {
            return infeasible(
                    resized,
                    RejectionReason.EMPTY_POD_SHARED_POOL_ERROR,
                    what + ": the exclusive slices hold " + (held.bubble().size() - pool.size())
                            + " CPUs and the pod shared pool " + pool.size()
                            + (shared ? ", which its sharing containers need one of" : "") + ", so at most "
                            + Math.max(0, mayGo) + " can be given back",
                    held);
        }
        CpuSet gone = cpus.giveBack(resized, pool, fewer, what, held.bubble());
        PodAssignment shrunk =
                withBubble(held, held.bubble().difference(gone), pool.difference(gone), held.numaAffinity());
        return new ResizeResult.Resized(
                state.withPod(state.sharedPool().union(gone), shrunk),
                shrunk,
                "budget " + held.bubble().size() + " → " + shrunk.bubble().size() + " CPUs",
                CpuSet.empty(),
                gone);
    }

    private static PodAssignment withBubble(PodAssignment held, CpuSet bubble, CpuSet pool, NumaMask affinity) {
        List<ContainerAssignment> containers = new ArrayList<>();
        for (ContainerAssignment c : held.containers()) {
            containers.add(
                    c.kind() == AssignmentKind.POD_SHARED
                            ? new ContainerAssignment(c.name(), c.type(), c.kind(), pool, c.memory(), c.memoryNodes())
                            : c);
        }
        return new PodAssignment(
                held.ref(), held.qos(), held.placement(), affinity, bubble, pool, held.podMemory(), containers);
    }

    private static ResizeResult infeasible(Pod pod, RejectionReason reason, String message, PodAssignment held) {
        return new ResizeCpus.Refused(pod, reason, message, held.bubble()).result();
    }
}
