package io.podnuma.bench;

import static io.podnuma.testkit.svg.SvgDocument.number;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.podnuma.bench.agent.BudgetFigures;
import io.podnuma.bench.agent.LatencySummary;
import io.podnuma.bench.agent.PinFigures;
import io.podnuma.testkit.svg.SvgDocument;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/** The three plots hold the figures they are given, on the right scale; the command writes those it has figures for. */
class BenchPlotsTest {

    private static final List<Measurement> PODNUMA = List.of(
            measured("merge/4numa-3x15-own", 2_400),
            measured("merge/4numa-3x15-own [compact hints]", 900),
            measured("merge/16numa-3x-all", 350_000),
            measured("merge/16numa-3x-all [compact hints]", 28_000),
            measured("alloc/none/16cpu", 5_000));
    private static final List<Measurement> KUBELET = List.of(
            measured("merge/4numa-3x15-own", 310_000),
            new Measurement("merge/16numa-3x-all", Measurement.EXTRAPOLATED, 4.1e15, Double.NaN, 1e18, null, ""),
            new Measurement("merge/34numa", Measurement.TIMEOUT, Double.NaN, Double.NaN, Double.NaN, null, ""));

    private static Measurement measured(String id, double nanos) {
        return new Measurement(id, Measurement.MEASURED, nanos, Double.NaN, 0, null, "");
    }

    private static Map<String, Element> bars(SvgDocument svg) {
        Map<String, Element> out = new LinkedHashMap<>();
        svg.withClass("rect", "bar")
                .forEach(e -> out.put(e.getAttribute("data-series") + " | " + e.getAttribute("data-category"), e));
        return out;
    }

    private static double value(Element bar) {
        return Double.parseDouble(bar.getAttribute("data-value"));
    }

    private static double tickX(SvgDocument svg, double value) {
        return svg.withClass("line", "tick").stream()
                .filter(e -> Math.abs(Double.parseDouble(e.getAttribute("data-value")) / value - 1) < 1e-9)
                .findFirst()
                .map(e -> number(e, "x1"))
                .orElseThrow(() -> new AssertionError("no tick at " + value));
    }

    @Test
    void mergePlotHoldsEveryShapeOnALogScaleWithTheKubeletsEstimatesMarked() {
        SvgDocument svg = SvgDocument.parse(BenchPlots.mergeTimes(PODNUMA, KUBELET));
        Map<String, Element> bars = bars(svg);
        assertThat(bars.keySet())
                .containsExactlyInAnyOrder(
                        "podnuma (TopologyPolicy.admit) | merge/4numa-3x15-own",
                        "podnuma (TopologyPolicy.admit) | merge/16numa-3x-all",
                        "podnuma, compact hints | merge/4numa-3x15-own",
                        "podnuma, compact hints | merge/16numa-3x-all",
                        "kubelet (Go, v1.37.2) | merge/4numa-3x15-own",
                        "kubelet (Go, v1.37.2) | merge/16numa-3x-all");
        assertThat(value(bars.get("podnuma (TopologyPolicy.admit) | merge/16numa-3x-all")))
                .isEqualTo(350_000);
        assertThat(value(bars.get("podnuma, compact hints | merge/4numa-3x15-own")))
                .isEqualTo(900);
        Element kubelet16 = bars.get("kubelet (Go, v1.37.2) | merge/16numa-3x-all");
        assertThat(value(kubelet16)).isEqualTo(4.1e15);
        assertThat(kubelet16.getAttribute("class")).isEqualTo("bar estimate");
        assertThat(svg.texts()).contains("~" + ComparisonTable.duration(4.1e15), "time per merge (log scale)");

        // log scale: the axis runs in decades of nanoseconds from 100 ns to 1e16 ns, each as wide as the next,
        // and a bar ends at log10 of its value
        double at100ns = tickX(svg, 100);
        double decade = tickX(svg, 1_000) - at100ns;
        assertThat(tickX(svg, 1e16) - at100ns).isCloseTo(14 * decade, within(0.1));
        Element p4 = bars.get("podnuma (TopologyPolicy.admit) | merge/4numa-3x15-own");
        assertThat(number(p4, "x") + number(p4, "width")).isCloseTo(at100ns + Math.log10(24) * decade, within(0.1));
        assertThat(number(kubelet16, "x") + number(kubelet16, "width"))
                .isCloseTo(at100ns + Math.log10(4.1e13) * decade, within(0.1));
        // 14 decades: every grid line drawn, every second labelled so that the labels keep apart
        assertThat(svg.withClass("line", "tick")).hasSize(15);
        assertThat(svg.texts())
                .contains("100 ns", "10 µs", "1 ms", "100 ms", "10 s")
                .doesNotContain("1 µs", "1 s");
    }

    private static BudgetFigures figures(long rssKib, double millicores, long readyNanos) {
        return new BudgetFigures(
                "-XX:+UseSerialGC",
                rssKib,
                40 * 1024,
                rssKib / 2,
                30 * 1024,
                millicores,
                1.0,
                readyNanos,
                900_000_000L,
                readyNanos / 2,
                500_000,
                100_000,
                30_000_000,
                10_000_000,
                30_000_000,
                10_000_000);
    }

    @Test
    void footprintPlotShowsEachFigureAsAShareOfItsBudget() {
        Map<String, BudgetFigures> runs = new LinkedHashMap<>();
        runs.put("JIT", figures(120 * 1024, 2.5, 1_000_000_000L));
        runs.put("AOT cache", figures(72 * 1024, 6, 3_000_000_000L));
        SvgDocument svg = SvgDocument.parse(BenchPlots.footprint(runs));
        Map<String, Element> bars = bars(svg);
        assertThat(value(bars.get("JIT | Agent RSS, 110 pods (budget 96 MiB)"))).isCloseTo(125, within(1e-9));
        assertThat(value(bars.get("AOT cache | Agent RSS, 110 pods (budget 96 MiB)")))
                .isCloseTo(75, within(1e-9));
        assertThat(value(bars.get("AOT cache | Idle CPU, 110 pods (budget 5 m)")))
                .isCloseTo(120, within(1e-9));
        assertThat(value(bars.get("JIT | Ready after start, 110 pods (budget 2 s)")))
                .isCloseTo(50, within(1e-9));
        assertThat(value(bars.get("JIT | Ready after a restart (budget 2 s)"))).isCloseTo(25, within(1e-9));
        assertThat(value(
                        bars.get("baseline (JIT run): idle JVM; agent, no pods | Agent RSS, 110 pods (budget 96 MiB)")))
                .isCloseTo(100.0 * 40 / 96, within(1e-9));
        assertThat(bars).hasSize(3 * 5);
        assertThat(svg.texts()).contains("120.0 MiB", "72.0 MiB", "budget", "share of the budget", "100%");
        Element budget = svg.withClass("line", "reference").get(0);
        assertThat(number(budget, "x1")).isCloseTo(tickX(svg, 100), within(0.01));
    }

    @Test
    void pinPlotPutsTheTwoPathsSideBySideAndSaysWhatDidNotRun() {
        SvgDocument svg = SvgDocument.parse(BenchPlots.pinLatency(new PinFigures(Map.of(
                PinFigures.NRI, new LatencySummary(2000, 305_000, 1_848_000, 5_129_000, 400_000),
                PinFigures.NRI_STUB, new LatencySummary(2000, 189_000, 2_166_000, 6_251_000, 300_000)))));
        Map<String, Element> bars = bars(svg);
        String nri = "NRI path: CreateContainer round trip (agent's plugin)";
        assertThat(value(bars.get(nri + " | p50"))).isEqualTo(305_000);
        assertThat(value(bars.get(nri + " | p99"))).isEqualTo(1_848_000);
        assertThat(value(bars.get(nri + " | max"))).isEqualTo(5_129_000);
        assertThat(value(bars.get("NRI path: upstream Go stub plugin (baseline) | max")))
                .isEqualTo(6_251_000);
        assertThat(bars).hasSize(6);
        assertThat(svg.texts().stream().filter("not run"::equals)).hasSize(3);
        double ms = tickX(svg, 1e6);
        double decade = tickX(svg, 1e7) - ms;
        Element p99 = bars.get(nri + " | p99");
        assertThat(number(p99, "x") + number(p99, "width")).isCloseTo(ms + Math.log10(1.848) * decade, within(0.1));
    }

    @Test
    void theCommandWritesThePlotsOfTheFiguresItFinds(@TempDir Path tmp) throws Exception {
        Path jmh = tmp.resolve("jmh.json");
        Files.writeString(
                jmh,
                "[{\"benchmark\":\"io.podnuma.bench.MergeBenchmark.admit\",\"params\":{\"shape\":\"merge/x\"},"
                        + "\"primaryMetric\":{\"score\":1.5,\"scoreError\":0.1,\"scoreUnit\":\"us/op\"},"
                        + "\"secondaryMetrics\":{}}]");
        Path kubelet = tmp.resolve("kubelet.json");
        Files.writeString(kubelet, "[{\"id\":\"merge/x\",\"status\":\"measured\",\"nsPerOp\":2.5e8}]");
        Path agent = tmp.resolve("agent.properties");
        figures(80 * 1024, 3, 1_200_000_000L).write(agent);
        Path pins = tmp.resolve("pins-cgroup.properties");
        new PinFigures(Map.of(PinFigures.CGROUP, new LatencySummary(100, 80_000, 900_000, 2_000_000, 120_000)))
                .write(pins);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path plots = tmp.resolve("plots");
        int code = BenchPlots.run(
                new String[] {
                    "--out",
                    plots.toString(),
                    "--jmh",
                    jmh.toString(),
                    "--kubelet",
                    kubelet.toString(),
                    "--run",
                    "JIT=" + agent,
                    "--run",
                    "AOT=" + tmp.resolve("absent.properties"),
                    "--pins",
                    pins.toString(),
                    "--pins",
                    tmp.resolve("pins-nri.properties").toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("plot: " + plots.resolve(BenchPlots.MERGE_SVG))
                .contains("plot: " + plots.resolve(BenchPlots.FOOTPRINT_SVG))
                .contains("plot: " + plots.resolve(BenchPlots.PIN_SVG));
        Map<String, Element> merge = bars(SvgDocument.parse(plots.resolve(BenchPlots.MERGE_SVG)));
        assertThat(value(merge.get("podnuma (TopologyPolicy.admit) | merge/x"))).isEqualTo(1_500);
        assertThat(value(merge.get("kubelet (Go, v1.37.2) | merge/x"))).isEqualTo(2.5e8);
        assertThat(bars(SvgDocument.parse(plots.resolve(BenchPlots.FOOTPRINT_SVG)))
                        .keySet())
                .noneMatch(k -> k.startsWith("AOT"));
        assertThat(value(bars(SvgDocument.parse(plots.resolve(BenchPlots.PIN_SVG)))
                        .get("cgroup path: container created → cpuset written | p99")))
                .isEqualTo(900_000);

        // nothing to plot: nothing written
        Path empty = tmp.resolve("empty");
        assertThat(BenchPlots.run(new String[] {"--out", empty.toString()}, System.out, System.err))
                .isZero();
        try (var files = Files.list(empty)) {
            assertThat(files).isEmpty();
        }
        ByteArrayOutputStream usage = new ByteArrayOutputStream();
        assertThat(BenchPlots.run(
                        new String[] {"--jmh", jmh.toString()},
                        System.out,
                        new PrintStream(usage, true, StandardCharsets.UTF_8)))
                .isEqualTo(2);
        assertThat(usage.toString(StandardCharsets.UTF_8)).contains("error: --out DIR is required");
    }

    @Test
    void ticksReadAsDurations() {
        assertThat(BenchPlots.tickDuration(1)).isEqualTo("1 ns");
        assertThat(BenchPlots.tickDuration(100)).isEqualTo("100 ns");
        assertThat(BenchPlots.tickDuration(1e4)).isEqualTo("10 µs");
        assertThat(BenchPlots.tickDuration(1e6)).isEqualTo("1 ms");
        assertThat(BenchPlots.tickDuration(1e11)).isEqualTo("100 s");
        assertThat(BenchPlots.tickDuration(1e12)).isEqualTo(ComparisonTable.duration(1e12));
    }
}
