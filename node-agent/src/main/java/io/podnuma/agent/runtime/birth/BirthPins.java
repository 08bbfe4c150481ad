package io.podnuma.agent.runtime.birth;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.runtime.core.Pin;
import io.podnuma.agent.runtime.pin.WantedPins;

/**
 * The pin a container gets at creation (pure): exactly what the cgroup path would write for it, from the same
 * {@link WantedPins}, so both paths agree. The runtime names the pod by UID and the container by its Kubernetes
 * name, so no pod status is needed: a pod the agent has not decided yet runs on the node shared pool, as it would
 * on the cgroup path.
 */
public final class BirthPins {

    private final WantedPins wanted;

    public BirthPins(WantedPins wanted) {
        this.wanted = wanted;
    }

    public BirthDecision decide(BirthView view, String podUid, String container) {
        if (!view.writes()) {
            return new BirthDecision.Unpinned(BirthReason.NOT_WRITING);
        }
        Pin pin = wanted.of(view.state(), podUid, container);
        CpuSet free = pin.cpus().difference(view.blocked());
        if (free.isEmpty()) {
            return new BirthDecision.Unpinned(BirthReason.CPUS_HELD);
        }
        return new BirthDecision.Pinned(new Pin(free, pin.mems()), exclusive(view, podUid, container));
    }

    private static boolean exclusive(BirthView view, String podUid, String container) {
        PodAssignment pod = view.state().pods().get(podUid);
        return pod != null
                && pod.container(container)
                        .map(c -> c.kind() == AssignmentKind.EXCLUSIVE)
                        .orElse(false);
    }
}
