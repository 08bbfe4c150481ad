package io.podnuma.agent.checkpoint;

import static io.podnuma.agent.engine.pod.ContainerType.APP;
import static io.podnuma.agent.engine.pod.ContainerType.EPHEMERAL;
import static io.podnuma.agent.engine.pod.ContainerType.INIT;
import static io.podnuma.agent.engine.pod.ContainerType.SIDECAR;
import static io.podnuma.agent.engine.pod.PodQos.BEST_EFFORT;
import static io.podnuma.agent.engine.pod.PodQos.GUARANTEED;
import static io.podnuma.agent.engine.state.AssignmentKind.EXCLUSIVE;
import static io.podnuma.agent.engine.state.AssignmentKind.NODE_SHARED;
import static io.podnuma.agent.engine.state.AssignmentKind.POD_SHARED;
import static io.podnuma.agent.engine.state.PodPlacement.CONTAINER;
import static io.podnuma.agent.engine.state.PodPlacement.POD;
import static io.podnuma.agent.engine.state.PodPlacement.POD_LEVEL;

import io.podnuma.agent.engine.cpu.ReservedCpus;
import io.podnuma.agent.engine.cpu.StaticPolicyOptions;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.NumaNode;
import io.podnuma.agent.engine.machine.TestTopologies;
import io.podnuma.agent.engine.memory.MemoryBlock;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.memory.ReservedMemory;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.agent.engine.pod.ContainerType;
import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.state.PodPlacement;
import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyManagerOptions;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The checkpoint files kept under {@code src/test/resources/checkpoint/v<N>/}, each with the machine and
 * configuration it was written on and the exact state it holds, written out here by hand (not computed by the
 * allocator, so an allocator change cannot move the oracle along with the code).
 *
 * <p>A stored file is never edited or regenerated: it stands for the bytes an agent of that version left on a
 * node. When the format changes, its version goes up and the new writer's files go into a new directory.
 */
final class StoredCheckpoints {

    /** The policy hash every stored file carries. */
    static final String CONFIG_HASH = "sha256:" + "c".repeat(64);

    /**
     * One stored file.
     *
     * @param version the checkpoint version that wrote it (its directory)
     * @param file the file name in that directory
     * @param shape what node it describes, for failure messages
     * @param fingerprint the topology fingerprint the file holds: the fingerprint of {@code machine} must stay this
     *     value across releases, or every node would set its checkpoint aside on upgrade
     * @param state the exact state a reader must restore
     */
    record Stored(
            int version,
            String file,
            String shape,
            CpuTopology machine,
            NodeConfig config,
            String fingerprint,
            NodeState state) {

        String resource() {
            return "/checkpoint/v" + version + "/" + file;
        }

        Checkpoint checkpoint() {
            return new Checkpoint(state, new TopologyFingerprint(fingerprint), CONFIG_HASH);
        }

        @Override
        public String toString() {
            return "v" + version + "/" + file + " (" + shape + ")";
        }
    }

    private static final CpuTopology DUAL = TestTopologies.DUAL_SOCKET_HT;
    private static final String DUAL_FINGERPRINT =
            "sha256:b3b7029ccd133f6beacbc4f089c5f0ec8d63026f4d8019f58699b030bedcfae2";

    /** DUAL_SOCKET_HT with 512 pages of 2 MiB and 2 pages of 1 GiB on each node (same CPUs, same fingerprint). */
    private static final CpuTopology DUAL_HUGEPAGES = new CpuTopology(
            DUAL.cpus(),
            DUAL.offlineCpus(),
            DUAL.numaNodes().stream()
                    .map(n -> new NumaNode(
                            n.id(), n.cpus(), n.memoryBytes(), Map.of(2048L, 512L, 1048576L, 2L), n.distances()))
                    .toList());

    /** DUAL_SOCKET_HT with CPU 11 offline. */
    private static final CpuTopology DUAL_CPU_11_OFFLINE =
            TestTopologies.build(12, c -> c % 6, c -> (c % 6) % 2, c -> (c % 6) % 2, c -> 0, CpuSet.parse("11"));

    static final List<Stored> ALL = List.of(
            new Stored(
                    1,
                    "node-state.json",
                    "the first v1 file (commit a465903): a pod-level bubble with a shared sidecar, a per-container"
                            + " pod, Static memory",
                    DUAL,
                    config("0,6", 2, TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.POD),
                    DUAL_FINGERPRINT,
                    state(
                            "0,3,5-6,9,11",
                            pod(
                                    "bubble",
                                    GUARANTEED,
                                    POD_LEVEL,
                                    numa(0),
                                    "2,4,8,10",
                                    "4,10",
                                    List.of(block("memory", gib(1), numa(0), charged(0, gib(1)))),
                                    container(
                                            "log",
                                            SIDECAR,
                                            POD_SHARED,
                                            "4,10",
                                            numa(0),
                                            block("memory", mib(64), numa(0), charged())),
                                    container(
                                            "main",
                                            APP,
                                            EXCLUSIVE,
                                            "2,8",
                                            numa(0),
                                            block("memory", mib(512), numa(0), charged()))),
                            pod(
                                    "plain",
                                    GUARANTEED,
                                    POD,
                                    numa(1),
                                    "",
                                    "",
                                    List.of(),
                                    container(
                                            "app",
                                            APP,
                                            EXCLUSIVE,
                                            "1,7",
                                            numa(1),
                                            block("memory", gib(1), numa(1), charged(1, gib(1))))))),
            new Stored(
                    1,
                    "empty-node.json",
                    "a node with no pods yet: every CPU in the shared pool",
                    DUAL,
                    config("0,6", 2, TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.POD),
                    DUAL_FINGERPRINT,
                    state("0-11")),
            new Stored(
                    1,
                    "container-scope.json",
                    "container scope without memory pinning: an init container's CPUs reused by an app container,"
                            + " a fractional container and an ephemeral one on the node pool, a BestEffort pod",
                    DUAL,
                    config("0,6", 0, TopologyPolicyName.BEST_EFFORT, NodeConfig.TopologyScope.CONTAINER),
                    DUAL_FINGERPRINT,
                    state(
                            "0,3,5-6,9,11",
                            pod(
                                    "db",
                                    GUARANTEED,
                                    CONTAINER,
                                    numa(),
                                    "",
                                    "",
                                    List.of(),
                                    container("migrate", INIT, EXCLUSIVE, "2,8", numa()),
                                    container("db", APP, EXCLUSIVE, "2,4,8,10", numa()),
                                    container("metrics", APP, NODE_SHARED, "", numa())),
                            pod(
                                    "debugged",
                                    GUARANTEED,
                                    CONTAINER,
                                    numa(),
                                    "",
                                    "",
                                    List.of(),
                                    container("app", APP, EXCLUSIVE, "1,7", numa()),
                                    container("debugger", EPHEMERAL, NODE_SHARED, "", numa())),
                            pod(
                                    "web",
                                    BEST_EFFORT,
                                    CONTAINER,
                                    numa(),
                                    "",
                                    "",
                                    List.of(),
                                    container("web", APP, NODE_SHARED, "", numa())))),
            new Stored(
                    1,
                    "hugepages.json",
                    "Static memory with hugepages: a pod-level bubble holding memory and 2 MiB pages, a container"
                            + " with a 1 GiB page",
                    DUAL_HUGEPAGES,
                    config("0,6", 2, TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.POD),
                    DUAL_FINGERPRINT,
                    state(
                            "0,3,5-6,9,11",
                            pod(
                                    "db",
                                    GUARANTEED,
                                    POD,
                                    numa(1),
                                    "",
                                    "",
                                    List.of(),
                                    container(
                                            "db",
                                            APP,
                                            EXCLUSIVE,
                                            "1,7",
                                            numa(1),
                                            block("memory", gib(1), numa(1), charged(1, gib(1))),
                                            block("hugepages-1Gi", gib(1), numa(1), charged(1, gib(1))))),
                            pod(
                                    "dpdk",
                                    GUARANTEED,
                                    POD_LEVEL,
                                    numa(0),
                                    "2,4,8,10",
                                    "4,10",
                                    List.of(
                                            block("memory", gib(2), numa(0), charged(0, gib(2))),
                                            block("hugepages-2Mi", mib(512), numa(0), charged(0, mib(512)))),
                                    container(
                                            "fwd",
                                            APP,
                                            EXCLUSIVE,
                                            "2,8",
                                            numa(0),
                                            block("memory", gib(1), numa(0), charged()),
                                            block("hugepages-2Mi", mib(256), numa(0), charged())),
                                    container("ctl", APP, POD_SHARED, "4,10", numa(0))))),
            new Stored(
                    1,
                    "multi-numa.json",
                    "2 sockets x 2 NUMA nodes, 80 CPUs, policy restricted: a pod across nodes 0 and 1 with its"
                            + " memory charged to both, a bubble on node 2",
                    TestTopologies.DUAL_SOCKET_MULTI_NUMA_HT,
                    config("0,40", 4, TopologyPolicyName.RESTRICTED, NodeConfig.TopologyScope.POD),
                    "sha256:2dcd32409e7b453b5b8da16d3c2fdf396a3f275aab6eb4a1d4502015222eb041",
                    state(
                            "0,3-9,23-40,43-49,63-79",
                            pod(
                                    "bubble",
                                    GUARANTEED,
                                    POD_LEVEL,
                                    numa(2),
                                    "20-22,60-62",
                                    "60",
                                    List.of(block("memory", gib(4), numa(2), charged(2, gib(4)))),
                                    container(
                                            "proxy",
                                            SIDECAR,
                                            EXCLUSIVE,
                                            "20",
                                            numa(2),
                                            block("memory", mib(256), numa(2), charged())),
                                    container(
                                            "app",
                                            APP,
                                            EXCLUSIVE,
                                            "21-22,61-62",
                                            numa(2),
                                            block("memory", gib(2), numa(2), charged()))),
                            pod(
                                    "wide",
                                    GUARANTEED,
                                    POD,
                                    numa(0, 1),
                                    "",
                                    "",
                                    List.of(),
                                    container(
                                            "compute",
                                            APP,
                                            EXCLUSIVE,
                                            "1-2,10-19,41-42,50-59",
                                            numa(0, 1),
                                            block("memory", gib(20), numa(0, 1), charged(0, gib(15), 1, gib(5))))))),
            new Stored(
                    1,
                    "offline-cpu.json",
                    "DUAL_SOCKET_HT with CPU 11 offline (the fingerprint covers offline CPUs), no memory pinning",
                    DUAL_CPU_11_OFFLINE,
                    config("0,6", 0, TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.POD),
                    "sha256:98669e3bc35d09d98aea16c7278129ec0a9020fbdf899028211165bb6e6f4ae6",
                    state(
                            "0-1,3-7,9-10",
                            pod(
                                    "app",
                                    GUARANTEED,
                                    POD,
                                    numa(0),
                                    "",
                                    "",
                                    List.of(),
                                    container("app", APP, EXCLUSIVE, "2,8", numa())))));

    private StoredCheckpoints() {}

    /** Static CPU policy reserving {@code reserved}; Static memory reserving 1 GiB on nodes 0..n-1 when n > 0. */
    private static NodeConfig config(
            String reserved, int memoryNodes, TopologyPolicyName policy, NodeConfig.TopologyScope scope) {
        Map<Integer, Map<MemoryResource, Long>> memory = new TreeMap<>();
        for (int n = 0; n < memoryNodes; n++) {
            memory.put(n, Map.of(MemoryResource.MEMORY, gib(1)));
        }
        return new NodeConfig(
                NodeConfig.CpuPolicy.STATIC,
                ReservedCpus.explicit(CpuSet.parse(reserved)),
                StaticPolicyOptions.NONE,
                memoryNodes > 0 ? NodeConfig.MemoryPolicy.STATIC : NodeConfig.MemoryPolicy.NONE,
                new ReservedMemory(memory),
                policy,
                scope,
                TopologyManagerOptions.defaults(),
                true);
    }

    private static NodeState state(String sharedPool, PodAssignment... pods) {
        TreeMap<String, PodAssignment> byUid = new TreeMap<>();
        for (PodAssignment p : pods) {
            byUid.put(p.ref().uid(), p);
        }
        return new NodeState(CpuSet.parse(sharedPool), byUid);
    }

    private static PodAssignment pod(
            String name,
            PodQos qos,
            PodPlacement placement,
            NumaMask affinity,
            String bubble,
            String podSharedPool,
            List<MemoryBlock> podMemory,
            ContainerAssignment... containers) {
        return new PodAssignment(
                new PodRef("uid-" + name, "default", name),
                qos,
                placement,
                affinity,
                CpuSet.parse(bubble),
                CpuSet.parse(podSharedPool),
                podMemory,
                Arrays.asList(containers));
    }

    private static ContainerAssignment container(
            String name,
            ContainerType type,
            AssignmentKind kind,
            String cpus,
            NumaMask memoryNodes,
            MemoryBlock... memory) {
        return new ContainerAssignment(name, type, kind, CpuSet.parse(cpus), List.of(memory), memoryNodes);
    }

    private static MemoryBlock block(String resource, long size, NumaMask nodes, Map<Integer, Long> charged) {
        return new MemoryBlock(MemoryResource.parse(resource), size, nodes, charged);
    }

    private static NumaMask numa(int... nodes) {
        return NumaMask.of(nodes);
    }

    private static Map<Integer, Long> charged() {
        return Map.of();
    }

    private static Map<Integer, Long> charged(int node, long bytes) {
        return Map.of(node, bytes);
    }

    private static Map<Integer, Long> charged(int node, long bytes, int node2, long bytes2) {
        return Map.of(node, bytes, node2, bytes2);
    }

    private static long gib(long n) {
        return n << 30;
    }

    private static long mib(long n) {
        return n << 20;
    }
}
