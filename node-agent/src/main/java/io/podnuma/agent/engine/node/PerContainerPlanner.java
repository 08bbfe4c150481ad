package io.podnuma.agent.engine.node;

import io.podnuma.agent.engine.cpu.CpuState;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.device.PodDevices;
import io.podnuma.agent.engine.memory.MemoryBlock;
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
 * Every container takes its own CPUs and memory from the node: container scope (one hint per container,
 * spec §3 and §4) and classic pod scope (one hint for the whole pod, spec §4). CPUs and memory of finished
 * standard init containers are reused by later containers of the same pod; sidecars' never are.
 */
final class PerContainerPlanner {

    private final Managers m;
    private final boolean podScope;

    PerContainerPlanner(Managers m, boolean podScope) {
        this.m = m;
        this.podScope = podScope;
    }

    Planned plan(Pod pod, CpuState cpuState, MemoryState memState, PodDevices devices) {
        String uid = pod.ref().uid();
        PodQos qos = PodRules.qos(pod);
        TopologyHint podHint = null;
        if (podScope) {
            podHint = m.admit(
                    "pod " + pod.ref(),
                    cpuState,
                    podCpus(pod),
                    CpuSet.empty(),
                    memState,
                    podMemory(pod),
                    Managers.Given.pod(devices));
        }
        CpuSet reusable = CpuSet.empty();
        TreeMap<MemoryResource, Long> memReusable = new TreeMap<>();
        List<ContainerAssignment> out = new ArrayList<>();
        for (Container c : pod.allContainers()) {
            int n = cpus(pod, c);
            SortedMap<MemoryResource, Long> mem = memory(pod, c);
            if (n == 0 && mem.isEmpty()) {
                out.add(new ContainerAssignment(
                        c.name(), c.type(), AssignmentKind.NODE_SHARED, CpuSet.empty(), List.of(), NumaMask.empty()));
                continue;
            }
            String what = c.type().wireName() + " container " + c.name() + " of pod " + pod.ref();
            String owner = NodeState.containerOwner(uid, c.name());
            TopologyHint hint = podScope
                    ? podHint
                    : m.admit(what, cpuState, n, reusable, memState, mem, Managers.Given.container(devices, c.name()));
            CpuSet cpus = CpuSet.empty();
            if (n > 0) {
                var alloc = m.allocateCpus(what, cpuState, owner, n, hint, reusable, "the node");
                cpuState = alloc.state();
                cpus = alloc.cpus();
                reusable = c.type() == ContainerType.INIT ? reusable.union(cpus) : reusable.difference(cpus);
            }
            List<MemoryBlock> blocks = List.of();
            NumaMask mems = NumaMask.empty();
            if (!mem.isEmpty()) {
                TreeMap<MemoryResource, Long> charges = new TreeMap<>();
                mem.forEach((r, size) -> charges.put(r, size - Math.min(size, memReusable.getOrDefault(r, 0L))));
                memState = m.allocateMemory(what, memState, owner, hint, mem, charges);
                blocks = memState.blocks(owner);
                mems = memState.memoryNodes(owner);
                if (c.type() == ContainerType.INIT) {
                    // A finished init container's memory serves the next containers; the largest one counts.
                    mem.forEach((r, size) -> memReusable.merge(r, size, Math::max));
                } else {
                    mem.forEach((r, size) -> memReusable.computeIfPresent(r, (k, left) -> Math.max(0, left - size)));
                }
            }
            AssignmentKind kind = n > 0 ? AssignmentKind.EXCLUSIVE : AssignmentKind.NODE_SHARED;
            out.add(new ContainerAssignment(c.name(), c.type(), kind, cpus, blocks, mems));
        }
        NumaMask affinity = podHint == null || podHint.numaMask() == null ? NumaMask.empty() : podHint.numaMask();
        PodAssignment assignment = new PodAssignment(
                pod.ref(),
                qos,
                podScope ? PodPlacement.POD : PodPlacement.CONTAINER,
                affinity,
                CpuSet.empty(),
                CpuSet.empty(),
                List.of(),
                out);
        return new Planned(assignment, cpuState.defaultSet());
    }

    private int cpus(Pod pod, Container c) {
        return m.pinsCpus() ? PodRules.exclusiveCpus(pod, c) : 0;
    }

    private SortedMap<MemoryResource, Long> memory(Pod pod, Container c) {
        return m.pinsMemory() && PodRules.exclusiveMemory(pod, c) ? PodRules.memoryRequest(c) : new TreeMap<>();
    }

    /** {@code max(largest standard init + sidecars so far, Σ app + Σ sidecars)} of exclusive CPUs. */
    private int podCpus(Pod pod) {
        int sidecars = 0;
        int largestInit = 0;
        for (Container c : pod.initContainers()) {
            int n = cpus(pod, c);
            if (c.type() == ContainerType.SIDECAR) {
                sidecars += n;
            } else {
                largestInit = Math.max(largestInit, n + sidecars);
            }
        }
        int apps = sidecars;
        for (Container c : pod.appContainers()) {
            apps += cpus(pod, c);
        }
        return Math.max(largestInit, apps);
    }

    /** The same arithmetic per memory resource. */
    private SortedMap<MemoryResource, Long> podMemory(Pod pod) {
        TreeMap<MemoryResource, Long> sidecars = new TreeMap<>();
        TreeMap<MemoryResource, Long> largestInit = new TreeMap<>();
        for (Container c : pod.initContainers()) {
            Map<MemoryResource, Long> mem = memory(pod, c);
            if (c.type() == ContainerType.SIDECAR) {
                mem.forEach((r, v) -> sidecars.merge(r, v, Long::sum));
            } else {
                mem.forEach((r, v) -> largestInit.merge(r, v + sidecars.getOrDefault(r, 0L), Math::max));
            }
        }
        TreeMap<MemoryResource, Long> total = new TreeMap<>(sidecars);
        for (Container c : pod.appContainers()) {
            memory(pod, c).forEach((r, v) -> total.merge(r, v, Long::sum));
        }
        largestInit.forEach((r, v) -> total.merge(r, v, Math::max));
        return total;
    }
}
