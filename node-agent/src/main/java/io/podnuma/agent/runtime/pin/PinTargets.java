package io.podnuma.agent.runtime.pin;

import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.pods.PodRecord;
import io.podnuma.agent.runtime.core.Pin;
import io.podnuma.agent.runtime.host.HostBook;
import io.podnuma.agent.runtime.host.HostContainer;
import io.podnuma.agent.runtime.pods.PodBook;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The cpuset each host container should have now, from the node state and what the pod statuses name. */
public final class PinTargets {

    private final WantedPins wanted;
    private final PodBook pods;
    private final HostBook host;
    private final CgroupNaming naming;

    public PinTargets(WantedPins wanted, PodBook pods, HostBook host, CgroupNaming naming) {
        this.wanted = wanted;
        this.pods = pods;
        this.host = host;
        this.naming = naming;
    }

    /** The cpuset a host container should have now. */
    public Pin of(NodeState state, HostContainer hc) {
        String uid = hc.podUid();
        PodRecord r = pods.getOrNull(uid);
        PodAssignment pod = state.pods().get(uid);
        if (r == null) {
            return pod == null
                    ? wanted.shared(state)
                    : wanted.ofUnidentified(
                            state,
                            uid,
                            pod.containers().stream()
                                    .map(ContainerAssignment::name)
                                    .toList());
        }
        Optional<String> name = r.containerNamed(hc.cgroup().containerId());
        if (name.isPresent()) {
            return wanted.of(state, uid, name.get());
        }
        if (pod == null) {
            return wanted.shared(state);
        }
        List<String> unidentified = new ArrayList<>();
        for (ContainerAssignment c : pod.containers()) {
            if (!onHost(r, c.name())) {
                unidentified.add(c.name());
            }
        }
        return wanted.ofUnidentified(state, uid, unidentified);
    }

    /** Every CPU and memory node: what a container gets back when the node leaves podnuma. */
    public Pin everything(CpuSet onlineCpus) {
        return wanted.everything(onlineCpus);
    }

    /** The container's exclusive CPUs; empty when it runs on a shared pool or is not known. */
    public Optional<CpuSet> exclusiveCpus(NodeState state, HostContainer hc) {
        PodRecord r = pods.getOrNull(hc.podUid());
        PodAssignment pod = state.pods().get(hc.podUid());
        if (r == null || pod == null) {
            return Optional.empty();
        }
        return r.containerNamed(hc.cgroup().containerId())
                .flatMap(pod::container)
                .filter(c -> c.kind() == AssignmentKind.EXCLUSIVE)
                .map(ContainerAssignment::cpus);
    }

    /** The Kubernetes name of a host container, where its pod names it. */
    public Optional<String> nameOf(HostContainer hc) {
        PodRecord r = pods.getOrNull(hc.podUid());
        return r == null ? Optional.empty() : r.containerNamed(hc.cgroup().containerId());
    }

    /** Whether the container holds exclusive CPUs (its CPU quota may be turned off). */
    public boolean exclusive(NodeState state, HostContainer hc) {
        return exclusiveCpus(state, hc).isPresent();
    }

    private boolean onHost(PodRecord r, String container) {
        return r.containerId(container)
                .map(id -> host.contains(naming.containerPath(
                        new ContainerCgroup(r.qos(), r.ref().uid(), id))))
                .orElse(false);
    }
}
