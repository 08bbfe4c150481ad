package io.podnuma.agent.engine.node.validation;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.pod.ContainerType;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.PodAssignment;

/** One pod's exclusive CPUs without a bubble: apart from each other, except a finished init container's. */
final class CpuRules {

    private CpuRules() {}

    /**
     * Without a bubble every exclusive container took free CPUs from the node, or CPUs of a finished init
     * container before it that no long-running container had taken since (the kubelet's reuse).
     */
    static void exclusiveCpusApart(PodAssignment pod) {
        CpuSet reusable = CpuSet.empty();
        CpuSet held = CpuSet.empty();
        for (ContainerAssignment c : pod.containers()) {
            if (c.kind() != AssignmentKind.EXCLUSIVE) {
                continue;
            }
            CpuSet overlap = c.cpus().intersection(held).difference(reusable);
            if (!overlap.isEmpty()) {
                throw Wording.wrong(
                        pod,
                        c,
                        "cpus",
                        c.cpus(),
                        "CPUs no earlier container holds, except those of a finished init container (\"" + overlap
                                + "\" are held by " + holders(pod, c, overlap) + ")");
            }
            held = held.union(c.cpus());
            reusable = c.type() == ContainerType.INIT ? reusable.union(c.cpus()) : reusable.difference(c.cpus());
        }
    }

    private static String holders(PodAssignment pod, ContainerAssignment upTo, CpuSet cpus) {
        StringBuilder sb = new StringBuilder();
        for (ContainerAssignment c : pod.containers()) {
            if (c == upTo) {
                break;
            }
            if (c.kind() == AssignmentKind.EXCLUSIVE && c.cpus().intersects(cpus)) {
                sb.append(sb.isEmpty() ? "" : ", ")
                        .append(c.type().wireName())
                        .append(' ')
                        .append(c.name());
            }
        }
        return sb.toString();
    }
}
