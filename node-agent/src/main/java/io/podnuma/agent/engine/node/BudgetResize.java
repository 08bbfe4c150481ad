package io.podnuma.agent.engine.node;

import io.podnuma.agent.engine.cpu.CpuAllocationException;
import io.podnuma.agent.engine.cpu.CpuState;
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
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An in-place resize of a pod budget held as a bubble: the pod keeps every CPU it holds. Growing takes the difference
 * from the free CPUs of the pod's NUMA nodes (only there under {@code single-numa-node} and {@code restricted}; then
 * elsewhere under {@code best-effort} and {@code none}), as the CPU manager takes CPUs (whole cores first); shrinking
 * gives back CPUs of the pod shared pool, whole cores first and the highest first, never an exclusive slice and never
 * the pool's last CPU while a container shares it. The containers' exclusive slices stay as they are; the containers on
 * the pod shared pool follow it. What cannot be done in place is refused with the pod left as it is: a change of a
 * container's own exclusive request, of a budget's memory pinned by the memory manager, or to no CPUs at all.
 */
final class BudgetResize {

    private static final String OWNER_SUFFIX = "#resize";

    private final Managers m;
    private final boolean podLevelResources;

    BudgetResize(Managers m, boolean podLevelResources) {
        this.m = m;
        this.podLevelResources = podLevelResources;
    }

    ResizeResult resize(NodeState state, Pod resized) {
        PodAssignment held = state.pods().get(resized.ref().uid());
        if (held == null) {
            return new ResizeResult.NotHeld(resized.ref(), "the pod is not admitted");
        }
        if (!held.hasBubble()) {
            return new ResizeResult.NotHeld(resized.ref(), "the pod holds no pod budget of exclusive CPUs");
        }
        Pod effective = podLevelResources ? resized : resized.withoutPodResources();
        int wanted = m.pinsCpus() && effective.hasPodLevelResources() ? PodRules.cpuBudget(effective) : 0;
        int have = held.bubble().size();
        String what = "pod " + resized.ref() + " budget";
        Optional<String> fixed = changedBeyondTheBudget(effective, held);
        if (fixed.isPresent()) {
            return infeasible(resized, RejectionReason.UNEXPECTED_ADMISSION_ERROR, what + ": " + fixed.get());
        }
        if (wanted == 0) {
            return infeasible(
                    resized,
                    RejectionReason.UNEXPECTED_ADMISSION_ERROR,
                    what + ": cpu " + have + " → no whole CPUs: a budget of exclusive CPUs cannot become a shared one"
                            + " in place; recreate the pod");
        }
        if (wanted == have) {
            return new ResizeResult.Unchanged(held);
        }
        return wanted > have ? grow(state, held, resized, wanted - have) : shrink(state, held, resized, have - wanted);
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

    private ResizeResult grow(NodeState state, PodAssignment held, Pod resized, int extra) {
        CpuState books = new CpuState(state.sharedPool(), state.cpuOwners());
        CpuSet free = m.cpu().assignable(books);
        CpuSet nodes = held.numaAffinity().isEmpty()
                ? m.topo().numaNodesOf(held.bubble())
                : CpuSet.of(held.numaAffinity().toArray());
        CpuSet near = free.intersection(m.topo().cpusInNumaNodes(nodes));
        TopologyPolicyName policy = m.topology().name();
        boolean strict = policy == TopologyPolicyName.SINGLE_NUMA_NODE || policy == TopologyPolicyName.RESTRICTED;
        String what = "pod " + resized.ref() + " budget: cpu " + held.bubble().size() + " → "
                + (held.bubble().size() + extra);
        if (strict && near.size() < extra) {
            return infeasible(
                    resized,
                    RejectionReason.TOPOLOGY_AFFINITY_ERROR,
                    what + ": " + extra + " more CPUs on NUMA node(s) " + nodes + " under " + policy.configName()
                            + ", " + near.size() + " free there (" + free.size() + " on the node); the pod keeps "
                            + held.bubble());
        }
        if (free.size() < extra) {
            return infeasible(
                    resized,
                    RejectionReason.UNEXPECTED_ADMISSION_ERROR,
                    what + ": " + extra + " more CPUs, " + free.size() + " free on the node; the pod keeps "
                            + held.bubble());
        }
        CpuSet added;
        try {
            added = take(resized, near, Math.min(extra, near.size()));
            if (added.size() < extra) {
                added = added.union(take(resized, free.difference(near), extra - added.size()));
            }
        } catch (CpuAllocationException e) {
            RejectionReason reason = RejectionReason.SMT_ALIGNMENT_ERROR.wire().equals(e.reason())
                    ? RejectionReason.SMT_ALIGNMENT_ERROR
                    : RejectionReason.UNEXPECTED_ADMISSION_ERROR;
            return infeasible(resized, reason, what + ": " + e.getMessage() + "; the pod keeps " + held.bubble());
        }
        CpuSet bubble = held.bubble().union(added);
        NumaMask affinity = strict || held.numaAffinity().isEmpty()
                ? held.numaAffinity()
                : NumaMask.of(m.topo().numaNodesOf(bubble).toArray());
        PodAssignment grown = withBubble(held, bubble, held.podSharedPool().union(added), affinity);
        return new ResizeResult.Resized(
                state.withPod(state.sharedPool().difference(added), grown), grown, added, CpuSet.empty());
    }

    /** {@code n} CPUs of {@code from}, as the CPU manager takes them (whole cores and close CPUs first). */
    private CpuSet take(Pod resized, CpuSet from, int n) throws CpuAllocationException {
        if (n == 0) {
            return CpuSet.empty();
        }
        String owner = resized.ref().uid() + OWNER_SUFFIX;
        return m.cpu()
                .allocate(CpuState.of(from), owner, n, CpuSet.empty(), CpuSet.empty())
                .cpus();
    }

    private ResizeResult shrink(NodeState state, PodAssignment held, Pod resized, int fewer) {
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
                            + (shared ? ", which its sharing" + " containers need one of" : "") + ", so at most "
                            + Math.max(0, mayGo)
                            + " can be given back");
        }
        Optional<CpuSet> returned = giveBack(pool, fewer);
        if (returned.isEmpty()) {
            return infeasible(
                    resized,
                    RejectionReason.SMT_ALIGNMENT_ERROR,
                    what + ": full-pcpus-only gives back whole cores of "
                            + m.topo().cpusPerCore()
                            + " CPUs, and " + fewer + " is not a number of whole cores of the pod shared pool "
                            + pool);
        }
        CpuSet gone = returned.get();
        PodAssignment shrunk =
                withBubble(held, held.bubble().difference(gone), pool.difference(gone), held.numaAffinity());
        return new ResizeResult.Resized(
                state.withPod(state.sharedPool().union(gone), shrunk), shrunk, CpuSet.empty(), gone);
    }

    /**
     * {@code n} CPUs of {@code pool} to give back: whole cores first, the highest first, then single CPUs, the highest
     * first; under full-pcpus-only whole cores only (empty when {@code n} cannot be made of them).
     */
    private Optional<CpuSet> giveBack(CpuSet pool, int n) {
        List<CpuSet> whole = new ArrayList<>();
        m.topo().coresOf(pool).forEach(core -> {
            CpuSet cpus = m.topo().cpusInCore(core);
            if (cpus.isSubsetOf(pool)) {
                whole.add(cpus);
            }
        });
        whole.sort((a, b) -> Integer.compare(b.last(), a.last()));
        CpuSet.Builder out = CpuSet.builder();
        int left = n;
        for (CpuSet core : whole) {
            if (core.size() <= left) {
                out.addAll(core);
                left -= core.size();
            }
        }
        if (left > 0 && m.fullPcpusOnly()) {
            return Optional.empty();
        }
        CpuSet taken = out.build();
        int[] rest = pool.difference(taken).toArray();
        for (int i = rest.length - 1; i >= 0 && left > 0; i--, left--) {
            out.add(rest[i]);
        }
        return Optional.of(out.build());
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

    private static ResizeResult infeasible(Pod pod, RejectionReason reason, String message) {
        return new ResizeResult.Infeasible(pod.ref(), reason, message);
    }
}
