package io.podnuma.agent.engine.node.validation;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.memory.MemoryBlock;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.topology.NumaMask;
import java.util.List;

/** How a broken rule is worded: the pod, the container, the field, its value and what the planners put there. */
final class Wording {

    private Wording() {}

    static String describe(List<MemoryBlock> blocks) {
        StringBuilder sb = new StringBuilder("[");
        for (MemoryBlock b : blocks) {
            sb.append(sb.length() > 1 ? ", " : "")
                    .append(b.resource())
                    .append('=')
                    .append(b.size())
                    .append(" on ")
                    .append(b.nodes());
        }
        return sb.append(']').toString();
    }

    static IllegalArgumentException wrong(
            PodAssignment pod, ContainerAssignment c, String field, Object value, String expected) {
        String shown = value instanceof CpuSet cpus ? "\"" + cpus + "\"" : String.valueOf(value);
        return new IllegalArgumentException("pod " + pod.ref() + (c == null ? "" : " container " + c.name()) + ": "
                + field + " is " + shown + ", expected " + expected);
    }

    static NumaMask nodesOf(List<MemoryBlock> blocks) {
        NumaMask mask = NumaMask.empty();
        for (MemoryBlock b : blocks) {
            mask = mask.or(b.nodes());
        }
        return mask;
    }
}
