package io.podnuma.agent.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongPredicate;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

/**
 * The big merge shapes the budget talks about. Asserts the answers and prints the time per merge; times
 * are information for the report, not assertions (a benchmark harness comes later).
 */
class HintMergeTimingTest {

    private static volatile long sink;

    private final PrunedHintMerger merger = new PrunedHintMerger();

    @Test
    void sixteenNodesThreeProvidersWithEveryFittingMask() {
        NumaMask nodes = NumaMask.firstNodes(16);
        // cpu: 8 free CPUs per node, 12 requested -> every mask of 2+ nodes; memory fits one node;
        // one GPU on node 3 and one on node 12.
        List<TopologyHint> cpu = fitting(nodes, word -> Long.bitCount(word) >= 2, HintMergeTimingTest::count);
        List<TopologyHint> memory = fitting(nodes, word -> true, HintMergeTimingTest::count);
        long gpuNodes = NumaMask.of(3, 12).bits();
        List<TopologyHint> gpu = fitting(nodes, word -> (word & gpuNodes) != 0, HintMergeTimingTest::count);

        // No preferred mask is common (pairs vs single nodes): the not-preferred ranking decides, and, as in
        // the kubelet, a two-node AND that includes no GPU node wins on node count and number.
        assertThat(time(
                        "16 NUMA, cpu+memory+gpu, 180k hints, nothing preferred in common",
                        nodes,
                        List.of(cpu, memory, gpu)))
                .isEqualTo(TopologyHint.notPreferred(NumaMask.of(0, 1)));

        // Providers that offer masks of up to three nodes (the widths a placement can use on such a machine).
        List<TopologyHint> cpuUpTo3 = fitting(
                nodes, word -> Long.bitCount(word) >= 2 && Long.bitCount(word) <= 3, HintMergeTimingTest::count);
        List<TopologyHint> memoryUpTo3 = fitting(nodes, word -> Long.bitCount(word) <= 3, HintMergeTimingTest::count);
        List<TopologyHint> gpuUpTo3 =
                fitting(nodes, word -> (word & gpuNodes) != 0 && Long.bitCount(word) <= 3, HintMergeTimingTest::count);
        assertThat(time(
                        "16 NUMA, cpu+memory+gpu, masks of 1-3 nodes, nothing preferred in common",
                        nodes,
                        List.of(cpuUpTo3, memoryUpTo3, gpuUpTo3)))
                .isEqualTo(TopologyHint.notPreferred(NumaMask.of(0, 1)));

        List<TopologyHint> smallCpu = fitting(nodes, word -> true, HintMergeTimingTest::count);
        assertThat(time(
                        "16 NUMA, cpu+memory+gpu, 180k hints, preferred in common",
                        nodes,
                        List.of(smallCpu, memory, gpu)))
                .isEqualTo(TopologyHint.preferred(NumaMask.of(3)));
    }

    @Test
    void eightNodesFourProvidersWithAll255Masks() {
        NumaMask nodes = NumaMask.firstNodes(8);
        List<List<TopologyHint>> singlesPreferred = new ArrayList<>();
        List<List<TopologyHint>> ownNodePreferred = new ArrayList<>();
        List<List<TopologyHint>> growingNeeds = new ArrayList<>();
        for (int provider = 0; provider < 4; provider++) {
            int own = provider;
            int need = provider + 1;
            singlesPreferred.add(fitting(nodes, word -> true, HintMergeTimingTest::count));
            ownNodePreferred.add(fitting(nodes, word -> true, word -> word == (1L << own) ? 1 : 2));
            growingNeeds.add(fitting(nodes, word -> Long.bitCount(word) >= need, HintMergeTimingTest::count));
        }
        assertThat(time("8 NUMA x 4 providers x 255 masks, singles preferred", nodes, singlesPreferred))
                .isEqualTo(TopologyHint.preferred(NumaMask.of(0)));
        assertThat(time("8 NUMA x 4 providers x 255 masks, each prefers its own node", nodes, ownNodePreferred))
                .isEqualTo(TopologyHint.notPreferred(NumaMask.of(0)));
        assertThat(time("8 NUMA x 4 providers, needs of 1..4 nodes", nodes, growingNeeds))
                .isEqualTo(TopologyHint.notPreferred(NumaMask.of(0, 1, 2, 3)));
    }

    @Test
    void thirtyFourNodes() {
        NumaMask nodes = NumaMask.firstNodes(34);
        List<TopologyHint> singlesPreferred = upToTriples(nodes, 1);
        List<TopologyHint> pairsPreferred = upToTriples(nodes, 2);
        assertThat(time(
                        "34 NUMA x 3 providers x 6579 masks (sizes 1-3), no common preferred",
                        nodes,
                        List.of(singlesPreferred, pairsPreferred, singlesPreferred)))
                .isEqualTo(TopologyHint.notPreferred(NumaMask.of(0)));
        List<TopologyHint> pairsAndTriples = new ArrayList<>(pairsPreferred);
        pairsAndTriples.removeIf(hint -> hint.numaMask().count() == 1);
        assertThat(time(
                        "34 NUMA x 3 providers, one needs 2+ nodes",
                        nodes,
                        List.of(pairsAndTriples, singlesPreferred, singlesPreferred)))
                .isEqualTo(TopologyHint.notPreferred(NumaMask.of(0, 1)));
        assertThat(time(
                        "34 NUMA x 3 providers, preferred pair in common",
                        nodes,
                        List.of(pairsPreferred, pairsPreferred, pairsPreferred)))
                .isEqualTo(TopologyHint.preferred(NumaMask.of(0, 1)));
    }

    private static int count(long word) {
        return Long.bitCount(word);
    }

    /** Every mask the predicate accepts; the masks with the smallest score are preferred. */
    private static List<TopologyHint> fitting(NumaMask nodes, LongPredicate fits, ToIntFunction<Long> score) {
        List<Long> words = new ArrayList<>();
        NumaMask.forEachSubsetBySize(nodes, word -> {
            if (fits.test(word)) {
                words.add(word);
            }
        });
        int best = words.stream().mapToInt(score).min().orElse(0);
        List<TopologyHint> hints = new ArrayList<>(words.size());
        for (long word : words) {
            hints.add(new TopologyHint(NumaMask.ofBits(word), score.applyAsInt(word) == best));
        }
        return hints;
    }

    private static List<TopologyHint> upToTriples(NumaMask nodes, int preferredSize) {
        List<TopologyHint> hints = new ArrayList<>();
        int[] ids = nodes.toArray();
        for (int a = 0; a < ids.length; a++) {
            hints.add(new TopologyHint(NumaMask.of(ids[a]), preferredSize == 1));
            for (int b = a + 1; b < ids.length; b++) {
                hints.add(new TopologyHint(NumaMask.of(ids[a], ids[b]), preferredSize == 2));
                for (int c = b + 1; c < ids.length; c++) {
                    hints.add(new TopologyHint(NumaMask.of(ids[a], ids[b], ids[c]), false));
                }
            }
        }
        return hints;
    }

    private TopologyHint time(String shape, NumaMask nodes, List<List<TopologyHint>> lists) {
        TopologyHint result = null;
        for (int i = 0; i < 300; i++) {
            result = merger.merge(nodes, lists, MaskOrder.narrowest());
        }
        int runs = 200;
        long[] nanos = new long[runs];
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
        long cpuBefore = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            result = merger.merge(nodes, lists, MaskOrder.narrowest());
            nanos[i] = System.nanoTime() - start;
        }
        // CPU time of this thread: less disturbed than wall time when other builds share the machine
        double cpuMicrosPerMerge = (threads.getCurrentThreadCpuTime() - cpuBefore) / 1e3 / runs;
        long allocatedPerMerge = (threads.getCurrentThreadAllocatedBytes() - allocatedBefore) / runs;
        // The floor for any merge: reading every hint's mask once.
        long checksum = 0;
        long scanBefore = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < runs; i++) {
            for (List<TopologyHint> list : lists) {
                for (TopologyHint hint : list) {
                    checksum += hint.numaMask() == null ? 1 : hint.numaMask().bits();
                }
            }
        }
        double scanMicros = (threads.getCurrentThreadCpuTime() - scanBefore) / 1e3 / runs;
        sink = checksum; // keeps the JIT from dropping the reading loop
        Arrays.sort(nanos);
        double permutations = 1;
        int hints = 0;
        for (List<TopologyHint> list : lists) {
            permutations *= list.size();
            hints += list.size();
        }
        System.out.printf(
                "merge timing: %-70s %6d hints, %.1e kubelet permutations: wall median %8.1f us, p90 %8.1f us,"
                        + " max %8.1f us; cpu mean %8.1f us (reading the hints alone: %.1f us); %d KiB allocated/merge"
                        + " -> %s%n",
                shape,
                hints,
                permutations,
                nanos[runs / 2] / 1e3,
                nanos[runs * 9 / 10] / 1e3,
                nanos[runs - 1] / 1e3,
                cpuMicrosPerMerge,
                scanMicros,
                allocatedPerMerge / 1024,
                result);
        return result;
    }
}
