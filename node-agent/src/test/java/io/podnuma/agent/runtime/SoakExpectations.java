package io.podnuma.agent.runtime;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.podnuma.agent.checkpoint.CheckpointCodec;
import io.podnuma.agent.checkpoint.TopologyFingerprint;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.soak.AgentRecords;
import io.podnuma.testkit.soak.Placements;
import io.podnuma.testkit.soak.Record;
import io.podnuma.testkit.soak.Violation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
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

    /**
     * UID → the placement facts ({@link Placements}) of every pod the state holds: its bubble, and each container off
     * the node shared pool with its CPUs, memory nodes and, if exclusive, its exclusive CPUs.
     */
    public static Map<String, SortedMap<String, String>> placements(NodeState state) {
        Map<String, SortedMap<String, String>> out = new TreeMap<>();
        for (PodAssignment p : state.pods().values()) {
            Placements.Pod facts = new Placements.Pod();
            if (p.hasBubble()) {
                facts.bubble(cpuList(p.bubble()));
            }
            for (ContainerAssignment c : p.containers()) {
                if (c.kind() != AssignmentKind.NODE_SHARED) {
                    facts.container(
                            c.name(),
                            c.kind() == AssignmentKind.EXCLUSIVE,
                            cpuList(c.cpus()),
                            c.memoryNodes().nodes());
                }
            }
            out.put(p.ref().uid(), facts.facts());
        }
        return out;
    }

    /**
     * One look at the records once a fault converged: every live pod of the checkpoint ({@code state}) that node
     * {@code node}'s NumaNodeState or the PodResources answer on {@code socket} lacks, and every pod whose containers
     * either places otherwise (CPUs, exclusive CPUs, memory nodes, bubble; {@link Placements#disagreements}).
     */
    public static List<Violation> recordsDisagree(
            NodeState state, KubernetesClient client, String node, Path socket, Set<String> livePods) {
        var allocations = AgentRecords.allocations(client, node);
        var answer = AgentRecords.podResources(socket);
        Set<String> inNodeState = new TreeSet<>();
        allocations.forEach(a -> inNodeState.add(a.namespace() + "/" + a.name()));
        Set<String> inPodResources = new TreeSet<>();
        answer.forEach(r -> inPodResources.add(r.getNamespace() + "/" + r.getName()));
        List<Violation> out = new ArrayList<>(
                AgentRecords.lostAfterConvergence(podNames(state), inNodeState, inPodResources, livePods));
        out.addAll(Placements.disagreements(
                placements(state),
                Map.of(
                        Record.NUMA_NODE_STATE,
                        Placements.ofNumaNodeState(allocations),
                        Record.POD_RESOURCES,
                        Placements.ofPodResources(answer, uidsByName(state))),
                livePods));
        return out;
    }

    /** {@code namespace/name → uid} of every pod the state holds (PodResources names pods, the records key by UID). */
    public static Map<String, String> uidsByName(NodeState state) {
        Map<String, String> out = new TreeMap<>();
        podNames(state).forEach((uid, name) -> out.put(name, uid));
        return out;
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

    /** The test kit's form of the agent's CPU set. */
    public static CpuList cpuList(CpuSet s) {
        return new CpuList(new TreeSet<>(s.stream().boxed().toList()));
    }
}
