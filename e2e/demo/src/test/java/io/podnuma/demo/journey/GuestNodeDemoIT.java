package io.podnuma.demo.journey;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.controlplane.ControlPlaneUnavailableException;
import io.podnuma.demo.journey.GuestNodeDemo.GuestReport;
import io.podnuma.demo.journey.GuestNodeDemo.GuestRow;
import io.podnuma.testkit.Repository;
import io.podnuma.testkit.cpu.CpuList;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README demo's guest-node part on a real multi-NUMA cgroup v2 node: checks what its table shows (two budgets on
 * two NUMA nodes with their memory, the too-big one and the Burstable one on the shared pool) and that each
 * container's cgroup v2 cpuset, written by the agent, is what the container reports.
 */
class GuestNodeDemoIT {

    @TempDir
    Path dir;

    @Test
    void twoBudgetsOnTwoNumaNodesTheirCgroupsSayTheSame() throws Exception {
        GuestNodeDemo demo = new GuestNodeDemo(
                Repository.root(), dir, System.getProperty("podnuma.images.tag", "0.1.0-SNAPSHOT"), System.out);
        Optional<String> cannot = demo.unavailable();
        cannot.ifPresent(reason -> System.out.println("GuestNodeDemoIT skipped: " + reason));
        Assumptions.assumeTrue(cannot.isEmpty(), () -> cannot.orElseThrow());
        GuestReport r;
        try {
            r = demo.run();
        } catch (ControlPlaneUnavailableException e) {
            System.out.println("GuestNodeDemoIT skipped: " + e.getMessage());
            Assumptions.abort(e.getMessage());
            return;
        }
        System.out.printf(
                "[GuestNodeDemoIT] guest start → node Ready %.1f s, the whole part %.1f s%n",
                r.bootToReady().toMillis() / 1e3, r.whole().toMillis() / 1e3);

        assertThat(r.numa()).as("the guest's NUMA nodes").hasSize(2);
        String traderNode = onOneNumaNode(r, "trader", 2);
        String analyticsNode = onOneNumaNode(r, "analytics", 3);
        assertThat(traderNode)
                .as("trader and analytics on different NUMA nodes")
                .isNotEqualTo(analyticsNode);

        CpuList exclusive = r.pod("trader").get(0).row().cpus();
        CpuList analytics = r.pod("analytics").get(0).row().cpus();
        for (String shared : List.of("too-big", "web")) {
            assertThat(r.pod(shared)).as(shared).isNotEmpty().allSatisfy(c -> {
                assertThat(c.row().pool())
                        .as("%s/%s", shared, c.row().container())
                        .isEqualTo("NodeShared");
                assertThat(c.row().cpus().ids())
                        .as("%s/%s off the budgets' CPUs", shared, c.row().container())
                        .doesNotContainAnyElementsOf(exclusive.ids())
                        .doesNotContainAnyElementsOf(analytics.ids());
                assertThat(CpuList.parse(c.cgroupCpus())).isEqualTo(c.row().cpus());
            });
        }
    }

    /** The pod's containers share its budget's {@code cpus} CPUs, all on one NUMA node whose memory they have. */
    private static String onOneNumaNode(GuestReport r, String pod, int cpus) {
        List<GuestRow> rows = r.pod(pod);
        assertThat(rows).extracting(c -> c.row().container()).containsExactlyInAnyOrder("engine", "proxy");
        GuestRow first = rows.get(0);
        assertThat(first.row().cpus().size()).as("%s's budget", pod).isEqualTo(cpus);
        assertThat(first.cpuNuma())
                .as("%s's CPUs %s on one NUMA node", pod, first.row().cpus())
                .doesNotContain("-", ",");
        Map.Entry<Integer, CpuList> node = r.numa().entrySet().stream()
                .filter(e -> Integer.toString(e.getKey()).equals(first.cpuNuma()))
                .findFirst()
                .orElseThrow();
        assertThat(node.getValue().ids()).containsAll(first.row().cpus().ids());
        assertThat(rows).allSatisfy(c -> {
            assertThat(c.row().pool()).isEqualTo("PodShared");
            assertThat(c.row().cpus()).isEqualTo(first.row().cpus());
            assertThat(c.row().mems())
                    .as("%s/%s's memory", pod, c.row().container())
                    .isEqualTo(first.cpuNuma());
            assertThat(CpuList.parse(c.cgroupCpus()))
                    .as("%s/%s cpuset.cpus.effective", pod, c.row().container())
                    .isEqualTo(c.row().cpus());
            assertThat(c.cgroupMems())
                    .as("%s/%s cpuset.mems.effective", pod, c.row().container())
                    .isEqualTo(first.cpuNuma());
        });
        return first.cpuNuma();
    }
}
