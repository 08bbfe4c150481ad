package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A real kubelet + containerd worker node in a QEMU guest with NUMA nodes of 2 cores × 2 threads on cgroup v2
 * ({@link #topology}: two nodes here, four in {@link GuestNodeFourNumaIT}),
 * registered to a local control plane, with the kubelet's own static CPU manager, memory manager {@code Static} and
 * topology manager {@code single-numa-node} / pod scope: the live oracle podnuma's engine is compared with.
 *
 * <p>It skips with the reason when this machine cannot boot the guest (no qemu and no way to install it, no Debian
 * kernel package). The guest takes one host CPU for about a minute; in {@code scripts/test} this module's tests run
 * before any other module's start, so nothing else shares the machine with it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GuestNodeIT {

    /** The machine; a subclass boots another. */
    GuestTopology topology() {
        return GuestTopology.TWO_NODES;
    }

    private LocalControlPlane plane;
    private GuestNode node;

    @BeforeAll
    void boot() {
        try {
            plane = LocalControlPlane.startForRealKubelet();
            node = GuestNode.start(
                    plane,
                    GuestNodeOptions.of(
                            topology(), GuestNodeOptions.KubeletManagers.STATIC_SINGLE_NUMA_NODE_POD_SCOPE));
        } catch (ControlPlaneUnavailableException e) {
            System.out.println("GuestNodeIT skipped: " + e.getMessage());
            Assumptions.abort(e.getMessage());
        }
        System.out.printf(
                "%s: %d NUMA nodes, guest start to node Ready %.1f s%n",
                getClass().getSimpleName(),
                topology().nodes(),
                node.bootToReady().toMillis() / 1e3);
    }

    @AfterAll
    void tearDown() {
        if (node != null) {
            node.close();
        }
        if (plane != null) {
            plane.close();
        }
    }

    @Test
    void theNodeHasItsNumaNodesOnCgroupV2AndRegistersWithItsCpus() {
        StringBuilder script = new StringBuilder();
        for (int n = 0; n < topology().nodes(); n++) {
            script.append("cat /sys/devices/system/node/node").append(n).append("/cpulist\n");
        }
        script.append("cat /sys/fs/cgroup/kubepods/cgroup.subtree_control\n");
        script.append("grep ' /sys/fs/cgroup ' /proc/mounts\n");
        List<String> lines =
                node.exec(script.toString(), Duration.ofSeconds(30)).lines().toList();

        for (int n = 0; n < topology().nodes(); n++) {
            assertThat(lines.get(n))
                    .as("CPUs of NUMA node " + n)
                    .isEqualTo(topology().firstCpu(n) + "-" + topology().lastCpu(n));
        }
        int k = topology().nodes();
        assertThat(lines.get(k)).as("controllers the kubelet's pods get").contains("cpuset", "memory");
        assertThat(lines.get(k + 1)).as("the only cgroup mount").startsWith("cgroup2 /sys/fs/cgroup cgroup2 ");
        Node n = plane.client().nodes().withName(node.nodeName()).get();
        assertThat(n.getStatus().getCapacity().get("cpu").getAmount())
                .isEqualTo(String.valueOf(topology().cpus()));
        assertThat(n.getStatus().getNodeInfo().getContainerRuntimeVersion()).isEqualTo("containerd://2.4.2");
    }

    @Test
    void theKubeletsPodLevelManagersPutAPodBudgetOnOneNumaNodeWithItsMemory() {
        Pod pod = node.runPausePod("default", "oracle-budget", """
                  resources:
                    requests: {cpu: "2", memory: 256Mi}
                    limits: {cpu: "2", memory: 256Mi}
                """, "");

        Map<String, String> allowed = allowed(node.allowedLists(pod, "main"));
        TreeSet<Integer> cpus = cpuList(allowed.get("Cpus_allowed_list"));
        assertThat(cpus).as("exclusive CPUs of the budget").hasSize(2).doesNotContain(0);
        int numa = cpus.first() / topology().cpusPerNode();
        assertThat(cpus.last() / topology().cpusPerNode())
                .as("both on NUMA node " + numa)
                .isEqualTo(numa);
        assertThat(allowed.get("Mems_allowed_list"))
                .as("memory on the CPUs' node")
                .isEqualTo(String.valueOf(numa));
        plane.client().pods().inNamespace("default").withName("oracle-budget").delete();
    }

    private static Map<String, String> allowed(String status) {
        return status.lines()
                .map(l -> l.split(":\\s*", 2))
                .filter(kv -> kv.length == 2)
                .collect(Collectors.toMap(kv -> kv[0], kv -> kv[1].strip()));
    }

    private static TreeSet<Integer> cpuList(String list) {
        TreeSet<Integer> out = new TreeSet<>();
        for (String part : list.split(",")) {
            List<Integer> ends =
                    Arrays.stream(part.split("-")).map(Integer::parseInt).toList();
            for (int c = ends.getFirst(); c <= ends.getLast(); c++) {
                out.add(c);
            }
        }
        return out;
    }
}
