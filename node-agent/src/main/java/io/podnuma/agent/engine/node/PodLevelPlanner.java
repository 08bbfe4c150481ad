package io.podnuma.agent.engine.node;

import io.podnuma.agent.engine.cpu.CpuState;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.device.PodDevices;
import io.podnuma.agent.engine.memory.MemoryBlock;
import io.podnuma.agent.engine.memory.MemoryQuantity;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.memory.MemoryState;
import io.podnuma.agent.engine.pod.Container;
import io.podnuma.agent.engine.pod.ContainerType;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.agent.engine.pod.PodRules;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.state.PodPlacement;
import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyHint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Pod scope with a pod-level budget (spec §2, the hybrid model): one hint and one bubble for the pod budget,
 * exclusive slices for qualifying containers, the rest on the pod shared pool.
 *
 * <p>With a CPU budget of 0 (pod not Guaranteed, or a fractional pod CPU request) there is no bubble: every
 * container runs on the node shared pool, and only the pod's memory budget of a Guaranteed pod is pinned.
 */
final class PodLevelPlanner {

    private final Managers m;

    PodLevelPlanner(Managers m) {
        this.m = m;
    }

    /** Returns the admitted pod and the new node shared pool; throws {@link RejectedException}. */
    Planned plan(Pod pod, CpuState cpuState, MemoryState memState, PodDevices devices) {
        String uid = pod.ref().uid();
        PodQos qos = PodRules.qos(pod);
        int budget = m.pinsCpus() ? PodRules.cpuBudget(pod) : 0;
        SortedMap<MemoryResource, Long> memBudget =
                m.pinsMemory() && qos == PodQos.GUARANTEED ? PodRules.memoryBudget(pod) : new TreeMap<>();
        String what = "pod " + pod.ref() + " budget";
        TopologyHint hint =
                m.admit(what, cpuState, budget, CpuSet.empty(), memState, memBudget, Managers.Given.pod(devices));

        CpuSet bubble = CpuSet.empty();
        if (budget > 0) {
            var bubbleAlloc = m.allocateCpus(what, cpuState, uid, budget, hint, CpuSet.empty(), "the node");
            cpuState = bubbleAlloc.state();
            bubble = bubbleAlloc.cpus();
        }
        List<MemoryBlock> podMemory = List.of();
        NumaMask mems = NumaMask.empty();
        if (!memBudget.isEmpty()) {
            memState = m.allocateMemory(what, memState, uid, hint, memBudget, memBudget);
            podMemory = memState.blocks(uid);
            mems = memState.memoryNodes(uid);
        }
        Walk walk = new Walk(pod, budget, bubble, memBudget, mems, hint);
        walk.initContainers();
        walk.appContainers();
        walk.sharedContainers();
        List<ContainerAssignment> containers = new ArrayList<>(walk.out);
        for (Container c : pod.ephemeralContainers()) {
            containers.add(new ContainerAssignment(
                    c.name(), c.type(), AssignmentKind.NODE_SHARED, CpuSet.empty(), List.of(), NumaMask.empty()));
        }
        NumaMask affinity = hint.numaMask() == null ? NumaMask.empty() : hint.numaMask();
        PodAssignment assignment = new PodAssignment(
                pod.ref(), qos, PodPlacement.POD_LEVEL, affinity, bubble, walk.pool, podMemory, containers);
        return new Planned(assignment, cpuState.defaultSet());
    }

    /** One pass over the containers of one pod, in the order of spec §2 steps 3–6. */
    private final class Walk {
        private final Pod pod;
        private final int budget;
        private final CpuSet bubble;
        private final Map<MemoryResource, Long> memBudget;
        private final NumaMask mems;
        private final TopologyHint hint;
        private final List<ContainerAssignment> out = new ArrayList<>();
        private final List<Integer> deferred = new ArrayList<>();
        private final Map<Integer, List<MemoryBlock>> deferredMemory = new TreeMap<>();
        private final TreeMap<MemoryResource, Long> memTaken = new TreeMap<>();
        private CpuSet sidecars = CpuSet.empty();
        private CpuSet pool;

        Walk(
                Pod pod,
                int budget,
                CpuSet bubble,
                Map<MemoryResource, Long> memBudget,
                NumaMask mems,
                TopologyHint hint) {
            this.pod = pod;
            this.budget = budget;
            this.bubble = bubble;
            this.memBudget = memBudget;
            this.mems = mems;
            this.hint = hint;
        }

        void initContainers() {
            for (Container c : pod.initContainers()) {
                int n = budget > 0 ? PodRules.exclusiveCpus(pod, c) : 0;
                boolean sidecar = c.type() == ContainerType.SIDECAR;
                List<MemoryBlock> memory = memory(c, sidecar);
                if (n > 0) {
                    CpuSet available = bubble.difference(sidecars);
                    if (n > available.size()) {
                        throw new RejectedException(
                                RejectionReason.UNEXPECTED_ADMISSION_ERROR,
                                what(c) + " requests " + n + " exclusive CPUs, but only " + available.size()
                                        + " of the pod budget of " + budget + " remain after sidecars took "
                                        + sidecars.size());
                    }
                    CpuSet slice = slice(c, available, n);
                    if (sidecar) {
                        sidecars = sidecars.union(slice);
                    }
                    out.add(assignment(c, AssignmentKind.EXCLUSIVE, slice, memory));
                } else if (budget == 0) {
                    out.add(assignment(c, AssignmentKind.NODE_SHARED, CpuSet.empty(), memory));
                } else if (sidecar) {
                    defer(memory);
                } else {
                    CpuSet available = bubble.difference(sidecars);
                    if (available.isEmpty()) {
                        throw new RejectedException(
                                RejectionReason.EMPTY_POD_SHARED_POOL_ERROR,
                                what(c) + " needs the pod shared pool, but the sidecars before it took the whole pod"
                                        + " budget of " + budget + " CPUs (" + sidecars + ")");
                    }
                    out.add(assignment(c, AssignmentKind.POD_SHARED, available, memory));
                }
            }
            pool = bubble.difference(sidecars);
        }

        void appContainers() {
            for (Container c : pod.appContainers()) {
                int n = budget > 0 ? PodRules.exclusiveCpus(pod, c) : 0;
                List<MemoryBlock> memory = memory(c, true);
                if (n > 0) {
                    if (n > pool.size()) {
                        throw new RejectedException(
                                RejectionReason.UNEXPECTED_ADMISSION_ERROR,
                                what(c) + " requests " + n + " exclusive CPUs, but only " + pool.size()
                                        + " of the pod budget of " + budget + " remain (sidecars hold "
                                        + sidecars.size() + ", earlier app containers "
                                        + (bubble.size() - sidecars.size() - pool.size()) + ")");
                    }
                    CpuSet slice = slice(c, pool, n);
                    pool = pool.difference(slice);
                    out.add(assignment(c, AssignmentKind.EXCLUSIVE, slice, memory));
                } else if (budget == 0) {
                    out.add(assignment(c, AssignmentKind.NODE_SHARED, CpuSet.empty(), memory));
                } else {
                    defer(memory);
                }
            }
        }

        /** Step 5 and 6: every deferred long-running container gets the final pool, which must not be empty. */
        void sharedContainers() {
            if (deferred.isEmpty()) {
                return;
            }
            if (pool.isEmpty()) {
                List<String> names = new ArrayList<>();
                for (int index : deferred) {
                    names.add(sharedName(index));
                }
                throw new RejectedException(
                        RejectionReason.EMPTY_POD_SHARED_POOL_ERROR,
                        "pod " + pod.ref() + ": the pod budget of " + budget + " CPUs is taken by exclusive slices ("
                                + sidecars.size() + " for sidecars, " + (bubble.size() - sidecars.size())
                                + " for app containers), leaving 0 CPUs for the pod shared pool that " + names
                                + " need; lower an exclusive request or raise the pod's CPU budget");
            }
            for (int index : deferred) {
                Container c = containerAt(index);
                out.set(index, assignment(c, AssignmentKind.POD_SHARED, pool, deferredMemory.get(index)));
            }
        }

        private void defer(List<MemoryBlock> memory) {
            deferred.add(out.size());
            deferredMemory.put(out.size(), memory);
            out.add(null);
        }

        private String sharedName(int index) {
            return containerAt(index).name();
        }

        private Container containerAt(int index) {
            int inits = pod.initContainers().size();
            return index < inits
                    ? pod.initContainers().get(index)
                    : pod.appContainers().get(index - inits);
        }

        private CpuSet slice(Container c, CpuSet from, int n) {
            String owner = NodeState.containerOwner(pod.ref().uid(), c.name());
            return m.allocateCpus(what(c), CpuState.of(from), owner, n, hint, CpuSet.empty(), "the pod's bubble")
                    .cpus();
        }

        /**
         * The container's own memory blocks: its requests, carved out of the pod budget (charged to the pod,
         * not again to the node), on the pod's memory nodes. Long-running containers' blocks add up against
         * the budget; a standard init container's only has to fit next to the sidecars so far.
         */
        private List<MemoryBlock> memory(Container c, boolean accumulate) {
            if (memBudget.isEmpty() || !PodRules.exclusiveMemory(pod, c)) {
                return List.of();
            }
            List<MemoryBlock> blocks = new ArrayList<>();
            for (Map.Entry<MemoryResource, Long> e : PodRules.memoryRequest(c).entrySet()) {
                MemoryResource r = e.getKey();
                long taken = memTaken.getOrDefault(r, 0L);
                long budgetBytes = memBudget.getOrDefault(r, 0L);
                if (taken + e.getValue() > budgetBytes) {
                    throw new RejectedException(
                            RejectionReason.UNEXPECTED_ADMISSION_ERROR,
                            what(c) + " requests " + r + "=" + MemoryQuantity.format(e.getValue())
                                    + " exclusively, but only " + MemoryQuantity.format(budgetBytes - taken)
                                    + " of the pod budget of " + MemoryQuantity.format(budgetBytes) + " remain");
                }
                if (accumulate) {
                    memTaken.put(r, taken + e.getValue());
                }
                blocks.add(new MemoryBlock(r, e.getValue(), mems, Map.of()));
            }
            return blocks;
        }

        private ContainerAssignment assignment(
                Container c, AssignmentKind kind, CpuSet cpus, List<MemoryBlock> memory) {
            return new ContainerAssignment(c.name(), c.type(), kind, cpus, memory, mems);
        }

        private String what(Container c) {
            return c.type().wireName() + " container " + c.name() + " of pod " + pod.ref();
        }
    }
}
