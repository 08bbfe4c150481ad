package io.podnuma.demo.journey;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.controlplane.ControlPlaneUnavailableException;
import io.podnuma.demo.journey.GuestNodeDemo.GuestReport;
import io.podnuma.demo.journey.GuestNodeDemo.GuestRow;
import io.podnuma.testkit.Repository;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.prometheus.PrometheusText;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The helm journey on a multi-NUMA cgroup v2 node, as the README demo runs it ({@link GuestNodeDemo}: two NUMA nodes
 * of 2 cores × 2 threads in a QEMU guest, the kubelet's own managers off, the agent as its DaemonSet's pod): checks what
 * the containers report from inside against the guest's topology, the agent's cgroup v2 writes as the kernel has them
 * in force, where the kernel put a container's memory, the refusal of a budget wider than a NUMA node under
 * {@code single-numa-node}, a budget placed where the accelerator the kubelet gave it is (the test device plugin) and
 * one refused that cannot fit there; in the full journey ({@code -Dpodnuma.guestjourney=full}; CI runs the short one, the
 * tier's CI budget being 8 minutes) also its spread under {@code best-effort} after the agent rolled with the policy.
 */
class GuestNodeHelmJourneyE2E {

    @TempDir
    Path dir;

    @Test
    void cpusAndMemoryOfOneNumaNodeTooBigRefusedThenSpreadUnderBestEffort() throws Exception {
        GuestNodeDemo.Length length = GuestNodeDemo.Length.fromProperty(GuestNodeDemo.Length.SHORT);
        GuestNodeDemo demo = new GuestNodeDemo(
                Repository.root(), dir, System.getProperty("podnuma.images.tag", "0.1.0-SNAPSHOT"), System.out, length);
        Optional<String> cannot = demo.unavailable();
        cannot.ifPresent(reason -> System.out.println("GuestNodeHelmJourneyE2E skipped: " + reason));
        Assumptions.assumeTrue(cannot.isEmpty(), () -> cannot.orElseThrow());
        GuestReport r;
        try {
            r = demo.run();
        } catch (ControlPlaneUnavailableException e) {
            System.out.println("GuestNodeHelmJourneyE2E skipped: " + e.getMessage());
            Assumptions.abort(e.getMessage());
            return;
        }
        System.out.printf(
                "[GuestNodeHelmJourneyE2E] %s journey: guest start → node Ready %.1f s, the agent's roll %s, the whole"
                        + " journey %.1f s%n",
                length,
                r.bootToReady().toMillis() / 1e3,
                r.bestEffort()
                        .map(b -> String.format("%.1f s", b.roll().toMillis() / 1e3))
                        .orElse("not in the short journey"),
                r.whole().toMillis() / 1e3);

        assertThat(r.numa()).as("the guest's NUMA nodes").hasSize(2);
        GuestRow trader = onOneNumaNode(r.pod("trader"), r, 2);
        GuestRow analytics = onOneNumaNode(r.pod("analytics"), r, 3);
        assertThat(trader.cpuNuma())
                .as("trader and analytics on different NUMA nodes")
                .isNotEqualTo(analytics.cpuNuma());
        assertThat(trader.row().cpus().contains(0) || analytics.row().cpus().contains(0))
                .as("CPU 0 is reserved")
                .isFalse();
        onTheSharedPool(r.pod("web"), trader.row().cpus(), analytics.row().cpus());

        // Each budget an isolated partition of its CPUs: nothing else of the node can run there.
        GuestNodeDemo.Partitions partitions = r.partitions();
        assertThat(partitions.byPod())
                .containsEntry("trader", "isolated | " + trader.row().cpus())
                .containsEntry("analytics", "isolated | " + analytics.row().cpus());
        assertThat(partitions.isolated().ids())
                .containsAll(trader.row().cpus().ids())
                .containsAll(analytics.row().cpus().ids());
        assertThat(partitions.outside()).contains("Invalid argument").doesNotEndWith("exit 0");
        assertThat(partitions.condition()).isEqualTo("True PartitionsInForce");

        // The 64 MiB trader's engine wrote are on its NUMA node, page by page.
        assertThat(r.traderPages()).as("numa_maps").containsOnlyKeys(Integer.parseInt(trader.cpuNuma()));
        assertThat(r.traderPages().get(Integer.parseInt(trader.cpuNuma()))).isGreaterThanOrEqualTo(64L * 256);

        // Resized in place: grown with the agent killed right after the patch, a growth past the NUMA node refused,
        // then back.
        GuestNodeDemo.Resize resize = r.resize();
        int size = trader.row().cpus().size();
        int grownTo = size + resize.grownBy();
        assertThat(resize.agentRestarts()).as("the agent was killed once").isEqualTo(1);
        GuestRow grown = onOneNumaNode(resize.grown(), r, grownTo);
        assertThat(grown.cpuNuma()).as("grown on its NUMA node").isEqualTo(trader.cpuNuma());
        assertThat(grown.row().cpus().ids())
                .as("kept its CPUs")
                .containsAll(trader.row().cpus().ids());
        assertThat(resize.grownPartition())
                .as("trader's partition grown in place")
                .isEqualTo("isolated | " + grown.row().cpus());
        GuestRow refused = onOneNumaNode(resize.refused(), r, grownTo);
        assertThat(refused.row().cpus())
                .as("refused: kept what it held")
                .isEqualTo(grown.row().cpus());
        assertThat(resize.pendingCondition())
                .hasValueSatisfying(c -> assertThat(c)
                        .startsWith("True Infeasible: TopologyAffinityError: ")
                        .contains("cpu " + grownTo + " → " + (grownTo + 1))
                        .endsWith("it keeps " + grown.row().cpus()));
        GuestRow shrunk = onOneNumaNode(resize.shrunk(), r, size);
        assertThat(resize.conditionAfter())
                .as("the condition gone once it holds what it asks")
                .isEmpty();
        assertThat(shrunk.row().cpus())
                .as("a growth undone gives back what it took")
                .isEqualTo(trader.row().cpus());
        // The growth's Event is the killed agent's when it decided before it died, and may then be lost with it.
        assertThat(resize.resizedBy()).as("an agent logged the growth").isNotEmpty();
        System.out.println("[GuestNodeHelmJourneyE2E] the growth with the agent killed right after the patch: resized"
                + " by " + resize.resizedBy() + ", in force "
                + resize.grownAfterPatch().toSeconds()
                + " s after the patch");
        assertThat(resize.events())
                .anySatisfy(e -> assertThat(e).startsWith("Warning ResizeInfeasible: TopologyAffinityError: "))
                .anySatisfy(e -> assertThat(e)
                        .startsWith("Normal ResourcesResized: budget " + grownTo + " → " + size
                                + " CPUs in place: gave back "));
        resize.series().ifPresent(series -> {
            // The bench's figures (scripts/bench, BENCH_ONLY=resize): printed, not held to a budget here.
            System.out.println("[GuestNodeHelmJourneyE2E] resize: " + series.summary());
            assertThat(series.agentMillis()).as("a log line per timed resize").hasSize(series.count());
        });

        // Wider than a NUMA node: refused under single-numa-node, a Warning, the shared pool.
        onTheSharedPool(
                r.tooBig().stream().filter(c -> c.row().pod().equals("too-big")).toList(),
                trader.row().cpus());
        assertThat(r.warnings())
                .anySatisfy(w -> assertThat(w)
                        .startsWith("Warning TopologyAffinityError on too-big: ")
                        .contains("it runs in the node's shared pool"));

        // Devices: infer's CPUs and memory where its accelerator is; infer-wide cannot fit there, refused.
        GuestRow infer = onOneNumaNode(r.withDevices("infer"), r, 2);
        assertThat(infer.cpuNuma())
                .as("infer's CPUs on the NUMA node of the accelerator the kubelet gave it")
                .isEqualTo(Integer.toString(GuestNodeDemo.ACCEL_NODE));
        assertThat(infer.row().cpus().ids())
                .doesNotContainAnyElementsOf(trader.row().cpus().ids());
        onTheSharedPool(
                r.withDevices("infer-wide"), trader.row().cpus(), infer.row().cpus());
        assertThat(r.warnings())
                .anySatisfy(w -> assertThat(w)
                        .startsWith("Warning TopologyAffinityError on infer-wide: ")
                        .contains("example.com/accel")
                        .contains("it runs in the node's shared pool"));

        // What the user reads.
        assertThat(r.describe())
                .contains("Name:         " + GuestNodeDemo.POLICY)
                .containsPattern("Type:\\s+Ready\\s");
        if (length == GuestNodeDemo.Length.SHORT) {
            assertThat(r.bestEffort()).isEmpty();
            assertThat(PrometheusText.sampleValue(r.metrics(), "podnuma_cpu_manager_exclusive_cpu_allocation_count"))
                    .as("CPUs held exclusively: trader's 2 and infer's 2 (analytics and too-big deleted,"
                            + " infer-wide refused)")
                    .isEqualTo(4.0);
            System.out.println("[GuestNodeHelmJourneyE2E] the best-effort part (the agent's roll, the spread budget)"
                    + " runs with -Dpodnuma.guestjourney=full");
            return;
        }

        // best-effort: the agent rolled, trader kept its pins, the same width spreads across both NUMA nodes.
        List<GuestRow> traderAfter = r.afterRoll("trader");
        assertThat(traderAfter).allSatisfy(c -> {
            assertThat(c.row().cpus())
                    .as("trader after the roll")
                    .isEqualTo(trader.row().cpus());
            assertThat(c.row().mems()).isEqualTo(trader.row().mems());
        });
        List<GuestRow> spread = r.afterRoll("spread");
        assertThat(spread).hasSize(2).allSatisfy(c -> {
            assertThat(c.row().cpus().size()).isEqualTo(GuestNodeDemo.WIDE);
            assertThat(c.cpuNuma())
                    .as("%s's CPUs %s", c.row().container(), c.row().cpus())
                    .isEqualTo("0-1");
            assertThat(c.row().cpus().ids())
                    .doesNotContainAnyElementsOf(trader.row().cpus().ids());
            // Its memory fits one node: the merged hint best-effort keeps is the narrowest, so the memory manager pins
            // the budget's memory to one of the nodes its CPUs are on (as the kubelet does).
            assertThat(c.row().mems()).as("memory of the narrowest merged hint").isIn("0", "1");
            cgroupSays(c);
        });
        assertThat(PrometheusText.sampleValue(r.metrics(), "podnuma_cpu_manager_exclusive_cpu_allocation_count"))
                .as("CPUs held exclusively: trader's 2 and spread's %d", GuestNodeDemo.WIDE)
                .isEqualTo(2.0 + GuestNodeDemo.WIDE);
    }

    /** The pod's containers share its budget's {@code cpus} CPUs, all on one NUMA node whose memory they have. */
    private static GuestRow onOneNumaNode(List<GuestRow> rows, GuestReport r, int cpus) {
        assertThat(rows).extracting(c -> c.row().container()).containsExactlyInAnyOrder("engine", "proxy");
        GuestRow first = rows.get(0);
        String pod = first.row().pod();
        assertThat(first.row().cpus().size()).as("%s's budget", pod).isEqualTo(cpus);
        assertThat(r.numa().keySet().stream().map(String::valueOf))
                .as("%s's CPUs %s on one NUMA node", pod, first.row().cpus())
                .contains(first.cpuNuma());
        assertThat(rows).allSatisfy(c -> {
            assertThat(c.row().pool()).isEqualTo("PodShared");
            assertThat(c.row().cpus()).isEqualTo(first.row().cpus());
            assertThat(c.row().mems())
                    .as("%s/%s's memory", pod, c.row().container())
                    .isEqualTo(first.cpuNuma());
            cgroupSays(c);
        });
        return first;
    }

    private static void onTheSharedPool(List<GuestRow> rows, CpuList... exclusive) {
        assertThat(rows).isNotEmpty().allSatisfy(c -> {
            assertThat(c.row().pool())
                    .as("%s/%s", c.row().pod(), c.row().container())
                    .isEqualTo("NodeShared");
            for (CpuList held : exclusive) {
                assertThat(c.row().cpus().ids())
                        .as(
                                "%s/%s off the budgets' CPUs",
                                c.row().pod(), c.row().container())
                        .doesNotContainAnyElementsOf(held.ids());
            }
            cgroupSays(c);
        });
    }

    /** The container's cgroup v2 cpuset, as the guest's kernel has it in force, is what the container reports. */
    private static void cgroupSays(GuestRow c) {
        String name = c.row().pod() + "/" + c.row().container();
        assertThat(CpuList.parse(c.cgroupCpus()))
                .as("%s cpuset.cpus.effective", name)
                .isEqualTo(c.row().cpus());
        assertThat(c.cgroupMems())
                .as("%s cpuset.mems.effective", name)
                .isEqualTo(c.row().mems());
    }
}
