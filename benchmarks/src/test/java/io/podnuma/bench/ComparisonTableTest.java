package io.podnuma.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class ComparisonTableTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String JMH = """
            [
              {"benchmark": "io.podnuma.bench.AllocationBenchmark.allocateAndRelease", "mode": "avgt",
               "params": {"scenario": "alloc/none/2cpu"},
               "primaryMetric": {"score": 2.5, "scoreError": 0.5, "scoreUnit": "us/op"},
               "secondaryMetrics": {"gc.alloc.rate.norm": {"score": 2048.0, "scoreUnit": "B/op"}}},
              {"benchmark": "io.podnuma.bench.ExhaustiveMergeBenchmark.pruned", "mode": "avgt",
               "params": {"shape": "merge/small"},
               "primaryMetric": {"score": 900.0, "scoreError": "NaN", "scoreUnit": "ns/op"},
               "secondaryMetrics": {"\u00b7gc.alloc.rate.norm": {"score": 10.0, "scoreUnit": "B/op"}}},
              {"benchmark": "io.podnuma.bench.MergeBenchmark.admit", "mode": "avgt",
               "params": {"shape": "merge/huge"},
               "primaryMetric": {"score": 0.3, "scoreError": 0.01, "scoreUnit": "ms/op"},
               "secondaryMetrics": {}},
              {"benchmark": "io.podnuma.bench.MergeBenchmark.admitCompact", "mode": "avgt",
               "params": {"shape": "merge/huge"},
               "primaryMetric": {"score": 0.1, "scoreError": 0.01, "scoreUnit": "ms/op"},
               "secondaryMetrics": {}},
              {"benchmark": "io.podnuma.bench.MergeBenchmark.buildCompactAndAdmit", "mode": "avgt",
               "params": {"shape": "merge/huge"},
               "primaryMetric": {"score": 0.2, "scoreError": 0.01, "scoreUnit": "ms/op"},
               "secondaryMetrics": {}},
              {"benchmark": "io.podnuma.bench.MergeBenchmark.admit", "mode": "avgt",
               "params": {"shape": "merge/never"},
               "primaryMetric": {"score": 1.0, "scoreError": 0.01, "scoreUnit": "ms/op"},
               "secondaryMetrics": {}}
            ]""";

    private static final String KUBELET = """
            [
              {"id": "alloc/none/2cpu", "status": "measured", "nsPerOp": 5000, "bytesPerOp": 1048576,
               "sameAnswer": true},
              {"id": "merge/small", "status": "measured", "nsPerOp": 90000, "sameAnswer": false,
               "note": "podnuma merged 0"},
              {"id": "merge/huge", "status": "extrapolated", "nsPerOp": 7.2e12, "bytesPerOp": 3e11,
               "note": "extrapolated"},
              {"id": "merge/never", "status": "timeout", "timeoutSeconds": 10, "note": "did not finish in 10 s"}
            ]""";

    @Test
    void readsJmhUnitsVariantsAndAllocation() throws Exception {
        List<Measurement> jmh = ResultFiles.jmh(JSON.readTree(JMH), "test");
        assertThat(jmh)
                .extracting(Measurement::id)
                .containsExactly(
                        "alloc/none/2cpu",
                        "merge/small [pruned merger alone]",
                        "merge/huge",
                        "merge/huge [compact hints]",
                        "merge/huge [compact hints, built per merge]",
                        "merge/never");
        assertThat(jmh.get(0).nanosPerOp()).isEqualTo(2500.0);
        assertThat(jmh.get(0).errorNanos()).isEqualTo(500.0);
        assertThat(jmh.get(0).bytesPerOp()).isEqualTo(2048.0);
        assertThat(jmh.get(1).bytesPerOp()).isEqualTo(10.0);
        assertThat(jmh.get(2).nanosPerOp()).isEqualTo(300_000.0);
        assertThat(jmh.get(2).bytesPerOp()).isNaN();
    }

    @Test
    void tableShowsRatiosMarksExtrapolationAndDisagreement() throws Exception {
        String table = ComparisonTable.format(
                ResultFiles.jmh(JSON.readTree(JMH), "jmh"), ResultFiles.kubelet(JSON.readTree(KUBELET), "go"));
        String[] lines = table.split("\n");
        assertThat(lines).hasSize(8);
        assertThat(lines[2])
                .contains("alloc/none/2cpu", "2.5 µs ± 500 ns", "5.0 µs", "| 0.50 ", "2.0 KiB", "1.0 MiB", "yes");
        assertThat(lines[3]).contains("merge/small [pruned merger alone]", "90.0 µs", "0.01", "NO", "podnuma merged 0");
        assertThat(lines[4]).contains("~2.0 h", "~4.2e-08", "~279.4 GiB");
        // the compact-hints variant is compared with the same kubelet row
        assertThat(lines[5]).contains("merge/huge [compact hints]", "100.0 µs", "~2.0 h", "~1.4e-08");
        assertThat(lines[6]).contains("merge/huge [compact hints, built per merge]", "200.0 µs", "~2.0 h");
        assertThat(lines[7]).contains("did not finish", "did not finish in 10 s");
    }

    @Test
    void missingKubeletRowSaysNotRun() {
        Measurement p = new Measurement("merge/x", Measurement.MEASURED, 10, Double.NaN, 0, null, "");
        assertThat(ComparisonTable.format(List.of(p), List.of())).contains("not run");
    }

    @Test
    void durationsAndSizesPickReadableUnits() {
        assertThat(ComparisonTable.duration(999)).isEqualTo("999 ns");
        assertThat(ComparisonTable.duration(1.5e9)).isEqualTo("1.5 s");
        assertThat(ComparisonTable.duration(2201.3e9)).isEqualTo("36.7 min");
        assertThat(ComparisonTable.duration(7.2e12)).isEqualTo("2.0 h");
        assertThat(ComparisonTable.duration(3.2e16)).isEqualTo("1.0 years");
        assertThat(ComparisonTable.bytes(1536)).isEqualTo("1.5 KiB");
        assertThat(ComparisonTable.bytes(Double.NaN)).isEmpty();
    }
}
