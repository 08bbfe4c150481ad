package io.podnuma.agent.runtime;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.testkit.cpu.CpuList;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** What the soaks (the process soak and the in-process crash soak) expect of the node from a checkpoint's state. */
final class SoakExpectations {

    private SoakExpectations() {}

    /** {@code podUid/container} → the CPUs it must run on exactly, for the containers of pods with exclusive CPUs. */
    static Map<String, CpuList> exclusiveByContainer(NodeState state) {
        Map<String, CpuList> out = new TreeMap<>();
        for (PodAssignment p : state.pods().values()) {
            if (p.exclusiveCpus().isEmpty()) {
                continue;
            }
            for (ContainerAssignment c : p.containers()) {
                if (c.kind() != AssignmentKind.NODE_SHARED) {
                    out.put(p.ref().uid() + "/" + c.name(), cpuList(state.cpusOf(p, c)));
                }
            }
        }
        return out;
    }

    /** The test kit's form of the agent's CPU set. */
    static CpuList cpuList(CpuSet s) {
        return new CpuList(new TreeSet<>(s.stream().boxed().toList()));
    }
}
