package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupVersion;
import io.podnuma.agent.cgroup.partition.PartitionFiles;
import io.podnuma.agent.cgroup.partition.PartitionSupport;
import io.podnuma.agent.cgroup.partition.PartitionType;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.testkit.badinput.BadInput;
import io.podnuma.testkit.badinput.BadInputDoc;
import io.podnuma.testkit.badinput.InputKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue's partition cases: {@code cpuManager.partition: isolated} where the node cannot (cgroup v1, a kernel
 * without {@code cpuset.cpus.exclusive}) or its kernel will not make a slice a partition, on the in-memory agent with
 * a budget of 4 CPUs running. The pod keeps its CPUs, exclusive by its cpusets, and no partition is left half made.
 */
class BadPartitionCasesTest {

    private static final InputKind KIND = InputKind.PARTITIONS;
    private static final String KEPT = "the pod keeps its exclusive CPUs, exclusive by its cpusets; no cgroup is left a"
            + " partition or listing CPUs; the agent keeps running and pinning";
    private static final String TRADER_UID = "057a00eb-e4c3-3f8e-b2be-9349834dc619";
    private static final String POD_DIR = "/kubepods/pod" + TRADER_UID;

    @TempDir
    Path stateDir;

    @TempDir
    Path hierarchy;

    private PartitionedNode node;

    @AfterEach
    void close() {
        if (node != null) {
            node.close();
        }
    }

    static List<BadInput> cases() {
        return List.of(
                new BadInput(
                        "part-cgroup-v1",
                        KIND,
                        "partitions asked for on a cgroup v1 node",
                        "cpuManager.partition isolated; the node mounts cgroup v1",
                        List.of(
                                "node Warning PartitionsUnsupported: cpuManager.partition isolated: the node runs cgroup"
                                        + " v1; cpuset partitions are cgroup v2's; exclusive slices stay exclusive by"
                                        + " their cpusets alone",
                                "NumaNodeState Partitioned False PartitionsUnsupported"),
                        KEPT),
                new BadInput(
                        "part-kernel-without-exclusive",
                        KIND,
                        "partitions asked for on a kernel before 6.7",
                        "cpuManager.partition isolated; cgroup v2 without cpuset.cpus.exclusive (Debian's 6.1)",
                        List.of(
                                "node Warning PartitionsUnsupported: cpuManager.partition isolated: the kernel has no"
                                        + " <cgroup root>/kubepods/cpuset.cpus.exclusive (Linux 6.7 and newer have it):"
                                        + " a partition below the root needs every cgroup above it to list its CPUs"
                                        + " there; exclusive slices stay exclusive by their cpusets alone",
                                "NumaNodeState Partitioned False PartitionsUnsupported"),
                        KEPT),
                new BadInput(
                        "part-no-sys-admin",
                        KIND,
                        "partitions asked for where the agent may not make them",
                        "cpuManager.partition isolated; the chart's agent.cpusetPartitions false (no CAP_SYS_ADMIN)",
                        List.of(
                                "node Warning PartitionsUnsupported: cpuManager.partition isolated: the agent lacks"
                                        + " CAP_SYS_ADMIN, which the kernel requires to make a cpuset partition below"
                                        + " the root: install the chart with agent.cpusetPartitions=true (the"
                                        + " operator's agentCpusetPartitions), which grants the agents of such a policy"
                                        + " that one capability; exclusive slices stay exclusive by their cpusets alone",
                                "NumaNodeState Partitioned False PartitionsUnsupported"),
                        KEPT),
                new BadInput(
                        "part-kernel-invalidates",
                        KIND,
                        "a slice the kernel makes an invalid partition",
                        "the pod cgroup reads back \"isolated invalid (Cpu list in cpuset.cpus not exclusive)\"",
                        List.of(
                                "pod unit/trader Warning PartitionRefused: pod unit/trader: cgroup " + POD_DIR
                                        + " could not be made an isolated partition of CPUs 1-2,65-66 (the kernel"
                                        + " reports it \"isolated invalid (Cpu list in cpuset.cpus not exclusive)\");"
                                        + " its CPUs stay exclusive by their cpusets alone",
                                "NumaNodeState Partitioned False PartitionRefused"),
                        KEPT),
                new BadInput(
                        "part-kernel-refuses-list",
                        KIND,
                        "CPUs a cgroup beside kubepods lists as exclusive",
                        "system.slice's cpuset.cpus.exclusive 1-2: kubepods cannot list them",
                        List.of(
                                "pod unit/trader Warning PartitionRefused: pod unit/trader: cgroup " + POD_DIR
                                        + " could not be made an isolated partition of CPUs 1-2,65-66 (write"
                                        + " Exclusive[dir=/kubepods, cpus=1-2,65-66]: Invalid argument (siblings"
                                        + " /kubepods and /system.slice list the same CPUs)); its CPUs stay exclusive"
                                        + " by their cpusets alone",
                                "NumaNodeState Partitioned False PartitionRefused"),
                        KEPT));
    }

    private PartitionFiles files(String id) throws Exception {
        Pod trader = RuntimeFixtures.withStatus(PartitionedNode.budget("trader", "4"));
        return switch (id) {
            case "part-cgroup-v1" -> unsupported(PartitionSupport.of(CgroupVersion.V1, hierarchy, KUBEPODS, SYS_ADMIN));
            case "part-kernel-without-exclusive" -> {
                Files.createDirectories(KUBEPODS.in(hierarchy));
                Files.writeString(KUBEPODS.in(hierarchy).resolve("cpuset.cpus.partition"), "member\n");
                yield unsupported(PartitionSupport.of(CgroupVersion.V2, hierarchy, KUBEPODS, SYS_ADMIN));
            }
            case "part-no-sys-admin" -> {
                Files.createDirectories(KUBEPODS.in(hierarchy));
                Files.writeString(KUBEPODS.in(hierarchy).resolve("cpuset.cpus.exclusive"), "\n");
                yield unsupported(
                        PartitionSupport.of(CgroupVersion.V2, hierarchy, KUBEPODS, "CapEff:\t0000000000000000\n"));
            }
            case "part-kernel-invalidates" -> {
                node.kernel.refuse(node.podDir(trader), "Cpu list in cpuset.cpus not exclusive");
                yield node.kernel;
            }
            case "part-kernel-refuses-list" -> {
                node.kernel.list(CgroupPath.parse("system.slice"), CpuSet.parse("1-2"));
                yield node.kernel;
            }
            default -> throw new IllegalArgumentException(id);
        };
    }

    private static final CgroupPath KUBEPODS = PartitionedNode.KUBEPODS;
    private static final String SYS_ADMIN = "CapEff:\t0000000000200000\n";

    private PartitionFiles unsupported(PartitionSupport support) {
        String reason =
                ((PartitionSupport.Unsupported) support).reason().replace(hierarchy.toString(), "<cgroup root>");
        return PartitionFiles.none(reason);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void theSliceStaysExclusiveByItsCpusetsAndTheNodeSaysWhy(BadInput c) throws Exception {
        node = new PartitionedNode(stateDir);
        Pod trader = node.running(PartitionedNode.budget("trader", "4"));
        assertThat(trader.getMetadata().getUid()).isEqualTo(TRADER_UID);
        NodeAgent agent = node.agent(files(c.id()), Optional.of(PartitionType.ISOLATED));
        agent.reconcileNow();

        List<String> answer = new ArrayList<>(node.events.stream()
                .filter(e -> e.contains(" PartitionRefused: ") || e.contains(" PartitionsUnsupported: "))
                .toList());
        answer.add("NumaNodeState Partitioned " + node.partitioned().replaceFirst(":.*", ""));
        c.assertAnswer(answer);

        CpuSet bubble = agent.state().pods().get(TRADER_UID).bubble();
        assertThat(bubble.size()).isEqualTo(4);
        assertThat(node.cgroups.actual.get(node.appDir(trader)).cpus()).isEqualTo(bubble.difference(CpuSet.empty()));
        assertThat(node.kernel.types()).as("no partition left").isEmpty();
        assertThat(node.kernel.exclusiveLists().keySet())
                .as("no CPU listed by the agent's cgroups")
                .allMatch(dir -> dir.equals(CgroupPath.parse("system.slice")));
    }

    @Test
    void theDocIsUpToDate() {
        assertThat(BadInputDoc.check(KIND, cases(), "node-agent", getClass().getSimpleName()))
                .isNull();
    }
}
