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
 * A real kubelet + containerd worker node in a QEMU guest with 2 NUMA nodes × 2 cores × 2 threads on cgroup v2,
 * registered to a local control plane, with the kubelet's own static CPU manager, memory manager {@code Static} and
 * topology manager {@code single-numa-node} / pod scope: the live oracle podnuma's engine is compared with.
 *
 * <p>It skips with the reason when this machine cannot boot the guest (no qemu and no way to install it, no Debian
 * kernel package). The guest takes one host CPU for about a minute; in {@code scripts/test} this module's tests run
 * before any other module's start, so nothing else shares the machine with it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GuestNodeIT {

    private LocalControlPlane plane;
    private GuestNode node;

    @BeforeAll
    void boot() {
        try {
            plane = LocalControlPlane.startForRealKubelet();
            node = GuestNode.start(
                    plane,
                    GuestNodeOptions.of(
                            GuestTopology.TWO_NODES,
                            GuestNodeOptions.KubeletManagers.STATIC_SINGLE_NUMA_NODE_POD_SCOPE));
        } catch (ControlPlaneUnavailableException e) {
            System.out.println("GuestNodeIT skipped: " + e.getMessage());
            Assumptions.abort(e.getMessage());
        }
        System.out.printf(
                "GuestNodeIT: guest start to node Ready %.1f s%n",
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
    void theNodeHasTwoNumaNodesOnCgroupV2AndRegistersWithItsCpus() {
        String guest = node.exec(
                "cat /sys/devices/system/node/node0/cpulist /sys/devices/system/node/node1/cpulist\n"
                        + "cat /sys/fs/cgroup/kubepods/cgroup.subtree_control\n"
                        + "grep ' /sys/fs/cgroup ' /proc/mounts\n",
                Duration.ofSeconds(30));

        List<String> lines = guest.lines().toList();
        assertThat(lines).startsWith("0-3", "4-7");
        assertThat(lines.get(2)).as("controllers the kubelet's pods get").contains("cpuset", "memory");
        assertThat(lines.get(3)).as("the only cgroup mount").startsWith("cgroup2 /sys/fs/cgroup cgroup2 ");
        Node n = plane.client().nodes().withName(node.nodeName()).get();
        assertThat(n.getStatus().getCapacity().get("cpu").getAmount()).isEqualTo("8");
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
        int numa = cpus.first() / GuestTopology.TWO_NODES.cpusPerNode();
        assertThat(cpus.last() / GuestTopology.TWO_NODES.cpusPerNode())
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
