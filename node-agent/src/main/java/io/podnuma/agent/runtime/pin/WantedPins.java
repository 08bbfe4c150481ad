package io.podnuma.agent.runtime.pin;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.runtime.core.Pin;
import java.util.Collection;
import java.util.Optional;

/**
 * Which cpuset each container should have, from the node state alone (pure).
 *
 * <p>A container the engine placed gets its CPUs and memory nodes (no memory nodes: all of them). Everything else
 * that runs in a pod cgroup (containers of pods the engine refused or does not know, pause sandboxes) runs on the
 * node shared pool, as the kubelet's CPU manager puts every container without exclusive CPUs there.
 */
public final class WantedPins {

    private final CpuSet allMems;

    /** @param allMems the machine's memory nodes: the {@code cpuset.mems} of a container with no memory pinning */
    public WantedPins(CpuSet allMems) {
        this.allMems = allMems;
    }

    /** A container known by pod UID and name. */
    public Pin of(NodeState state, String podUid, String container) {
        PodAssignment pod = state.pods().get(podUid);
        if (pod == null) {
            return shared(state);
        }
        Optional<ContainerAssignment> c = pod.container(container);
        if (c.isEmpty()) {
            return shared(state);
        }
        return new Pin(state.cpusOf(pod, c.get()), mems(c.get()));
    }

    /**
     * A container cgroup of a known pod whose container the pod status does not name yet (it was created moments
     * ago, or it is the pod sandbox): the union of what the pod's not yet identified containers should get, so a
     * fresh container leaves other pods' CPUs at once and is narrowed to its own set when its status arrives.
     *
     * @param unidentified the names of the pod's containers that have no cgroup yet
     */
    public Pin ofUnidentified(NodeState state, String podUid, Collection<String> unidentified) {
        PodAssignment pod = state.pods().get(podUid);
        if (pod == null) {
            return shared(state);
        }
        CpuSet.Builder cpus = CpuSet.builder();
        CpuSet.Builder mems = CpuSet.builder();
        boolean any = false;
        for (String name : unidentified) {
            Optional<ContainerAssignment> c = pod.container(name);
            if (c.isPresent()) {
                cpus.addAll(state.cpusOf(pod, c.get()));
                mems.addAll(mems(c.get()));
                any = true;
            }
        }
        if (!any) {
            return pod.hasBubble() ? new Pin(pod.bubble(), podMems(pod)) : shared(state);
        }
        return new Pin(cpus.build(), mems.build());
    }

    /** The node shared pool with every memory node. */
    public Pin shared(NodeState state) {
        return new Pin(state.sharedPool(), allMems);
    }

    /** Every CPU and memory node: what a container gets back when the node leaves podnuma. */
    public Pin everything(CpuSet onlineCpus) {
        return new Pin(onlineCpus, allMems);
    }

    private CpuSet mems(ContainerAssignment c) {
        return c.memoryNodes().isEmpty() ? allMems : CpuSet.of(c.memoryNodes().nodes());
    }

    private CpuSet podMems(PodAssignment pod) {
        CpuSet.Builder b = CpuSet.builder();
        pod.podMemory().forEach(block -> block.nodes().nodes().forEach(b::add));
        CpuSet m = b.build();
        return m.isEmpty() ? allMems : m;
    }
}
