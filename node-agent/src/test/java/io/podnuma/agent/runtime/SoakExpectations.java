package io.podnuma.agent.runtime;

import io.podnuma.agent.checkpoint.CheckpointCodec;
import io.podnuma.agent.checkpoint.TopologyFingerprint;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.testkit.cpu.CpuList;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the soaks (the process soak, the in-process crash soak and the real-node soak of module e2e, which gets this
 * class through node-agent's test jar) expect of the node from a checkpoint's state.
 */
public final class SoakExpectations {

    private SoakExpectations() {}

    /** {@code podUid/container} → the CPUs it must run on exactly, for the containers of pods with exclusive CPUs. */
    public static Map<String, CpuList> exclusiveByContainer(NodeState state) {
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

    /** The checkpoint file's state, if it is there and whole (missing, truncated, or the rename not done: empty). */
    public static Optional<NodeState> readCheckpoint(Path file, TopologyFingerprint fingerprint) {
        try {
            return Optional.of(CheckpointCodec.decode(Files.readAllBytes(file), fingerprint)
                    .state());
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    /** {@code uid → namespace/name} of every pod the state holds. */
    public static Map<String, String> podNames(NodeState state) {
        Map<String, String> out = new TreeMap<>();
        state.pods()
                .values()
                .forEach(p -> out.put(
                        p.ref().uid(), p.ref().namespace() + "/" + p.ref().name()));
        return out;
    }

    /** {@code uid → name} of every pod the state gives exclusive CPUs (whose placement a fault may change). */
    public static Map<String, String> exclusiveHolderNames(Optional<NodeState> state) {
        Map<String, String> out = new TreeMap<>();
        state.ifPresent(s -> s.pods().values().forEach(p -> {
            if (!p.exclusiveCpus().isEmpty()) {
                out.put(p.ref().uid(), p.ref().name());
            }
        }));
        return out;
    }

    /** The test kit's form of the agent's CPU set. */
    public static CpuList cpuList(CpuSet s) {
        return new CpuList(new TreeSet<>(s.stream().boxed().toList()));
    }
}
