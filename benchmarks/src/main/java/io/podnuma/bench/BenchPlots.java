package io.podnuma.bench;

import io.podnuma.bench.agent.BenchTable;
import io.podnuma.bench.agent.BudgetFigures;
import io.podnuma.bench.agent.LatencySummary;
import io.podnuma.bench.agent.PinFigures;
import io.podnuma.bench.plot.BarChart;
import io.podnuma.bench.plot.BarChart.Bar;
import io.podnuma.bench.plot.BarChart.Reference;
import io.podnuma.bench.plot.BarChart.Series;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleFunction;
import java.util.function.ToDoubleFunction;

/**
 * The bench's figures as SVG plots, beside its tables: merge time against the kubelet (log scale), the agent's
 * footprint against its budgets, and pin latency on the NRI and the cgroup path. Each plot is a pure function of the
 * figures ({@link #mergeTimes}, {@link #footprint}, {@link #pinLatency}); {@link #run} reads the result files and
 * writes the plots whose figures are there.
 *
 * <p>Usage: {@code BenchPlots --out DIR [--jmh FILE] [--kubelet FILE] [--run NAME=FILE]... [--pins FILE]...}.
 */
public final class BenchPlots {

    public static final String MERGE_SVG = "merge-vs-kubelet.svg";
    public static final String FOOTPRINT_SVG = "footprint-vs-budget.svg";
    public static final String PIN_SVG = "pin-latency.svg";

    static final String PODNUMA = "#2f6db5";
    static final String COMPACT = "#4f9d55";
    static final String KUBELET = "#d9822b";
    static final String BASELINE = "#9a9a9a";
    private static final String[] RUN_COLOURS = {"#2f6db5", "#4f9d55", "#8e5bb5", "#c4a12b"};

    private BenchPlots() {}

    /**
     * Merge time per shape, podnuma's against the kubelet's Go merge of the same hints, on a log scale (the kubelet's
     * times reach hours where podnuma's stay in microseconds). An extrapolated kubelet figure is drawn lighter and
     * labelled "~"; a merge that did not finish has no bar.
     */
    public static String mergeTimes(List<Measurement> podnuma, List<Measurement> kubelet) {
        Map<String, Measurement> p = new HashMap<>();
        podnuma.forEach(m -> p.put(m.id(), m));
        Map<String, Measurement> k = new HashMap<>();
        kubelet.forEach(m -> k.put(m.id(), m));
        List<String> shapes = new ArrayList<>();
        podnuma.stream()
                .map(Measurement::id)
                .filter(id -> id.startsWith("merge/") && !id.contains(" ["))
                .forEach(shapes::add);
        if (shapes.isEmpty()) {
            throw new IllegalArgumentException("no merge/<shape> row among podnuma's figures");
        }
        List<Series> series = new ArrayList<>();
        series.add(new Series(
                "podnuma (TopologyPolicy.admit)",
                PODNUMA,
                shapes.stream().map(s -> timeBar(p.get(s))).toList()));
        if (shapes.stream().anyMatch(s -> p.containsKey(s + " [compact hints]"))) {
            series.add(new Series(
                    "podnuma, compact hints",
                    COMPACT,
                    shapes.stream()
                            .map(s -> timeBar(p.get(s + " [compact hints]")))
                            .toList()));
        }
        series.add(new Series(
                "kubelet (Go, v1.37.2)",
                KUBELET,
                shapes.stream().map(s -> timeBar(k.get(s))).toList()));
        return new BarChart(
                        "Topology merge time, podnuma vs the kubelet",
                        "Time per merge of the same hints (JMH avgt; kubelet: testing.Benchmark, ~ = extrapolated from"
                                + " a cut-short merge, lighter bar). Budgets: < 1 ms at 8 NUMA nodes, < 10 ms at 34.",
                        "time per merge",
                        true,
                        BenchPlots::tickDuration,
                        shapes,
                        series,
                        List.of(
                                new Reference(1e6, "budget 1 ms (8 NUMA)"),
                                new Reference(1e7, "budget 10 ms (34 NUMA)")))
                .svg();
    }

    private static Bar timeBar(Measurement m) {
        if (m == null) {
            return Bar.none("not run");
        }
        if (!m.hasTime()) {
            return Bar.none(Measurement.TIMEOUT.equals(m.status()) ? "did not finish" : m.status());
        }
        return new Bar(
                m.nanosPerOp(),
                (m.extrapolated() ? "~" : "") + ComparisonTable.duration(m.nanosPerOp()),
                m.extrapolated());
    }

    /** One measure of the footprint plot and its budget, in the figure's unit. */
    private record Budgeted(
            String measure,
            double limit,
            String limitText,
            ToDoubleFunction<BudgetFigures> figure,
            ToDoubleFunction<BudgetFigures> baseline,
            DoubleFunction<String> format) {}

    private static final List<Budgeted> BUDGETS = List.of(
            new Budgeted(
                    "Agent RSS, 110 pods",
                    96 * 1024,
                    "96 MiB",
                    BudgetFigures::agentRssKib,
                    BudgetFigures::idleJvmRssKib,
                    v -> BenchTable.mib((long) v)),
            new Budgeted(
                    "its anonymous part (RssAnon)",
                    96 * 1024,
                    "96 MiB",
                    BudgetFigures::agentAnonKib,
                    BudgetFigures::idleJvmAnonKib,
                    v -> BenchTable.mib((long) v)),
            new Budgeted(
                    "Idle CPU, 110 pods",
                    5,
                    "5 m",
                    BudgetFigures::agentMillicores,
                    BudgetFigures::idleJvmMillicores,
                    v -> BenchTable.fmt(v) + " m"),
            new Budgeted(
                    "Ready after start, 110 pods",
                    2e9,
                    "2 s",
                    BudgetFigures::readyColdNanos,
                    BudgetFigures::readyEmptyNanos,
                    v -> BenchTable.nanos((long) v)),
            new Budgeted(
                    "Ready after a restart",
                    2e9,
                    "2 s",
                    BudgetFigures::readyRestartNanos,
                    BudgetFigures::readyEmptyNanos,
                    v -> BenchTable.nanos((long) v)));

    /**
     * The agent's footprint as a share of each budget (100% = the budget), one bar per run of the agent bench (JIT,
     * archives), and the first run's baseline of the same run (an idle JVM; the agent on an empty node for ready).
     */
    public static String footprint(Map<String, BudgetFigures> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no run of the agent bench to plot");
        }
        List<String> measures = BUDGETS.stream()
                .map(b -> b.measure() + " (budget " + b.limitText() + ")")
                .toList();
        List<Series> series = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, BudgetFigures> run : runs.entrySet()) {
            BudgetFigures f = run.getValue();
            series.add(new Series(
                    run.getKey(),
                    RUN_COLOURS[i++ % RUN_COLOURS.length],
                    BUDGETS.stream()
                            .map(b -> share(b, b.figure().applyAsDouble(f)))
                            .toList()));
        }
        Map.Entry<String, BudgetFigures> first = runs.entrySet().iterator().next();
        series.add(new Series(
                "baseline (" + first.getKey() + " run): idle JVM; agent, no pods",
                BASELINE,
                BUDGETS.stream()
                        .map(b -> share(b, b.baseline().applyAsDouble(first.getValue())))
                        .toList()));
        return new BarChart(
                        "Node agent footprint vs its budgets",
                        "Each figure as a share of its budget (docs/DESIGN.md, Performance budgets); bars past 100%"
                                + " miss it. Agent bench (BENCH_ONLY=agent), same-run baselines.",
                        "share of the budget",
                        false,
                        v -> String.format(Locale.ROOT, "%.0f%%", v),
                        measures,
                        series,
                        List.of(new Reference(100, "budget")))
                .svg();
    }

    private static Bar share(Budgeted b, double value) {
        return Bar.of(100 * value / b.limit(), b.format().apply(value));
    }

    /**
     * Pin latency p50, p99 and max on the two paths: NRI (the runtime waits for the agent's CreateContainer answer,
     * the cpuset is in the container's spec before it exists) and cgroup (container created → its cpuset written, as
     * the agent bench polls it), with the upstream Go stub plugin as the NRI baseline; log scale.
     */
    public static String pinLatency(PinFigures figures) {
        Map<String, String[]> paths = new LinkedHashMap<>();
        paths.put(PinFigures.NRI, new String[] {"NRI path: CreateContainer round trip (agent's plugin)", PODNUMA});
        paths.put(PinFigures.NRI_STUB, new String[] {"NRI path: upstream Go stub plugin (baseline)", BASELINE});
        paths.put(PinFigures.CGROUP, new String[] {"cgroup path: container created → cpuset written", KUBELET});
        if (paths.keySet().stream().noneMatch(figures.byPath()::containsKey)) {
            throw new IllegalArgumentException("no pin latency of the NRI or the cgroup path to plot");
        }
        List<String> stats = List.of("p50", "p99", "max");
        List<Series> series = new ArrayList<>();
        paths.forEach((key, nameColour) -> {
            Optional<LatencySummary> l = Optional.ofNullable(figures.byPath().get(key));
            series.add(new Series(
                    nameColour[0],
                    nameColour[1],
                    stats.stream()
                            .map(stat -> l.map(s -> {
                                        long v = switch (stat) {
                                            case "p50" -> s.p50Nanos();
                                            case "p99" -> s.p99Nanos();
                                            default -> s.maxNanos();
                                        };
                                        return Bar.of(v, BenchTable.nanos(v));
                                    })
                                    .orElse(Bar.none("not run")))
                            .toList()));
        });
        return new BarChart(
                        "Pin latency, NRI vs the cgroup path",
                        "NRI: BENCH_ONLY=nri (through the upstream NRI adaptation); cgroup: BENCH_ONLY=agent (polled"
                                + " cpuset.cpus). Budget: p99 < 10 ms.",
                        "latency",
                        true,
                        BenchPlots::tickDuration,
                        stats,
                        series,
                        List.of(new Reference(1e7, "budget 10 ms")))
                .svg();
    }

    /** A power of ten of nanoseconds as people say it: 100 ns, 1 µs, 10 ms, 100 s, then minutes, hours, years. */
    static String tickDuration(double nanos) {
        String[] units = {"ns", "µs", "ms", "s"};
        int u = 0;
        double v = nanos;
        while (v >= 1000 * 0.9999 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        if (u < 3 || v < 1000) {
            return String.format(Locale.ROOT, "%.0f %s", v, units[u]);
        }
        return ComparisonTable.duration(nanos);
    }

    /** Reads the result files named by {@code args}, writes the plots whose figures are there; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) throws IOException {
        Path dir = null;
        Optional<Path> jmh = Optional.empty();
        Optional<Path> kubelet = Optional.empty();
        Map<String, BudgetFigures> runs = new LinkedHashMap<>();
        Map<String, LatencySummary> pins = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                return usage(err, args[i] + " needs a value");
            }
            String v = args[i + 1];
            Optional<Path> file = Optional.of(Path.of(v)).filter(Files::isRegularFile);
            switch (args[i]) {
                case "--out" -> dir = Path.of(v);
                case "--jmh" -> jmh = file;
                case "--kubelet" -> kubelet = file;
                case "--run" -> {
                    String[] nameFile = v.split("=", 2);
                    if (nameFile.length != 2 || nameFile[0].isEmpty()) {
                        return usage(err, "--run " + v + ": expected NAME=FILE");
                    }
                    Path f = Path.of(nameFile[1]);
                    if (Files.isRegularFile(f)) {
                        runs.put(nameFile[0], BudgetFigures.read(f));
                    }
                }
                case "--pins" -> {
                    if (file.isPresent()) {
                        pins.putAll(PinFigures.read(file.get()).byPath());
                    }
                }
                default -> {
                    return usage(err, "unknown option " + args[i]);
                }
            }
        }
        if (dir == null) {
            return usage(err, "--out DIR is required");
        }
        Files.createDirectories(dir);
        if (jmh.isPresent()) {
            List<Measurement> podnuma = ResultFiles.readJmh(jmh.get());
            if (podnuma.stream().anyMatch(m -> m.id().startsWith("merge/"))) {
                List<Measurement> go = kubelet.isPresent() ? ResultFiles.readKubelet(kubelet.get()) : List.of();
                write(out, dir.resolve(MERGE_SVG), mergeTimes(podnuma, go));
            }
        }
        if (!runs.isEmpty()) {
            write(out, dir.resolve(FOOTPRINT_SVG), footprint(runs));
        }
        if (pins.containsKey(PinFigures.NRI) || pins.containsKey(PinFigures.CGROUP)) {
            write(out, dir.resolve(PIN_SVG), pinLatency(new PinFigures(pins)));
        }
        return 0;
    }

    private static void write(PrintStream out, Path file, String svg) throws IOException {
        Files.writeString(file, svg);
        out.println("plot: " + file);
    }

    private static int usage(PrintStream err, String problem) {
        err.println("error: " + problem + "; usage: BenchPlots --out DIR [--jmh FILE] [--kubelet FILE]"
                + " [--run NAME=FILE]... [--pins FILE]...");
        return 2;
    }

    public static void main(String[] args) throws IOException {
        System.exit(run(args, System.out, System.err));
    }
}
