package io.podnuma.bench;

import static io.podnuma.bench.agent.BenchTable.fmt;
import static io.podnuma.bench.agent.BenchTable.mib;
import static io.podnuma.bench.agent.BenchTable.nanos;
import static io.podnuma.bench.agent.BenchTable.ratio;

import io.podnuma.bench.agent.BudgetFigures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.DoubleFunction;
import java.util.function.ToDoubleFunction;

/**
 * One table of every budget of the issue "footprint and the last budgets": the agent under the JIT and with archives
 * of its classes side by side, each beside its baseline from the same run (idle JVM, empty call, the API server's watch
 * event, the kubelet's Go merge), and whether the budget is met. Figures only; nothing is asserted.
 *
 * <p>Usage: {@code BudgetTable [--run NAME=FILE]... [--jmh FILE] [--kubelet FILE] [--out FILE]}: one column per
 * {@code --run} (the agent bench's {@code --figures} file); a file not given or not there leaves its cells "not run".
 */
public final class BudgetTable {

    /** The kubelet's row: its merge of the shape (the same inputs, hints as its providers give them). */
    static final String MERGE = "merge/16numa-3x-all";
    /** The merge as the agent's providers hand it their hints (the compact form), and with building them. */
    static final String MERGE_COMPACT = MERGE + " [compact hints]";

    static final String MERGE_BUILT = MERGE + " [compact hints, built per merge]";
    private static final String NOT_RUN = "not run";

    private BudgetTable() {}

    /** A budget: a figure is met when it is below {@code limit}, in the figure's own unit. */
    private record Budget(String text, double limit) {
        String met(double value) {
            return value < limit ? "yes" : "no";
        }
    }

    /** One run of the agent bench: its name in the table and its figures, if it ran. */
    public record Run(String name, Optional<BudgetFigures> figures) {}

    public static String render(List<Run> runs, List<Measurement> jmh, Optional<Measurement> kubelet) {
        List<String[]> rows = new ArrayList<>();
        rows.add(agentRow(
                "Agent RSS, 110 pods",
                new Budget("< 96 MiB", 96 * 1024),
                runs,
                BudgetFigures::agentRssKib,
                BudgetFigures::idleJvmRssKib,
                v -> mib((long) v),
                "idle JVM"));
        // What a pod's memory cgroup is charged for: the file pages of VmRSS (the JVM's library, the class archives)
        // are clean, shared and reclaimable, and charged to whoever read them first (on a node: containerd, which
        // unpacked the image).
        rows.add(agentRow(
                "  its anonymous part (RssAnon)",
                new Budget("< 96 MiB", 96 * 1024),
                runs,
                BudgetFigures::agentAnonKib,
                BudgetFigures::idleJvmAnonKib,
                v -> mib((long) v),
                "idle JVM"));
        rows.add(agentRow(
                "Ready after start, 110 pods",
                new Budget("< 2 s", 2e9),
                runs,
                BudgetFigures::readyColdNanos,
                BudgetFigures::readyEmptyNanos,
                v -> nanos((long) v),
                "agent, no pods"));
        rows.add(agentRow(
                "Ready after a restart (checkpoint)",
                new Budget("< 2 s", 2e9),
                runs,
                BudgetFigures::readyRestartNanos,
                BudgetFigures::readyEmptyNanos,
                v -> nanos((long) v),
                "agent, no pods"));
        rows.add(agentRow(
                "Idle CPU, 110 pods",
                new Budget("< 5 m", 5),
                runs,
                BudgetFigures::agentMillicores,
                BudgetFigures::idleJvmMillicores,
                v -> fmt(v) + " m",
                "idle JVM"));
        rows.add(agentRow(
                "PodResources List p99, 110 pods",
                new Budget("< 1 ms", 1e6),
                runs,
                BudgetFigures::listP99Nanos,
                BudgetFigures::emptyListP99Nanos,
                v -> nanos((long) v),
                "empty List"));
        rows.add(agentRow(
                "Shared-pool grow p99 (from the call's return)",
                new Budget("< 100 ms", 100e6),
                runs,
                BudgetFigures::growP99Nanos,
                BudgetFigures::growWatchP99Nanos,
                v -> nanos((long) v),
                "watch event (from the call sent)"));
        rows.add(agentRow(
                "Shared-pool shrink p99 (from the call's return)",
                new Budget("< 100 ms", 100e6),
                runs,
                BudgetFigures::shrinkP99Nanos,
                BudgetFigures::shrinkWatchP99Nanos,
                v -> nanos((long) v),
                "watch event (from the call sent)"));
        rows.add(mergeRow(
                "Merge, 16 NUMA x every fitting mask (180k hints)", runs.size(), find(jmh, MERGE_COMPACT), kubelet));
        rows.add(mergeRow(
                "  the same, the providers building their hints included",
                runs.size(),
                find(jmh, MERGE_BUILT),
                kubelet));
        List<String> head = new ArrayList<>(List.of("Measure", "Budget"));
        runs.forEach(r -> head.add(r.name() + " (ratio)"));
        String names = String.join(" / ", runs.stream().map(Run::name).toList());
        head.add("Baseline, " + names + " run");
        head.add("Met " + names);
        return FigureTable.render(head.toArray(String[]::new), rows);
    }

    private static String[] agentRow(
            String measure,
            Budget budget,
            List<Run> runs,
            ToDoubleFunction<BudgetFigures> figure,
            ToDoubleFunction<BudgetFigures> baseline,
            DoubleFunction<String> format,
            String baselineName) {
        List<String> cells = new ArrayList<>(List.of(measure, budget.text()));
        for (Run run : runs) {
            cells.add(run.figures()
                    .map(f -> format.apply(figure.applyAsDouble(f)) + " ("
                            + ratio(figure.applyAsDouble(f), baseline.applyAsDouble(f)) + ")")
                    .orElse(NOT_RUN));
        }
        // each run has its own baseline, taken in the same machine minutes as its figure
        cells.add(String.join(
                        " / ",
                        runs.stream()
                                .map(r -> r.figures()
                                        .map(f -> format.apply(baseline.applyAsDouble(f)))
                                        .orElse("–"))
                                .toList())
                + " " + baselineName);
        cells.add(String.join(
                " / ",
                runs.stream()
                        .map(r -> r.figures()
                                .map(f -> budget.met(figure.applyAsDouble(f)))
                                .orElse("–"))
                        .toList()));
        return cells.toArray(String[]::new);
    }

    /** The merge runs in JMH's forked JVM under the JIT only: the first run's column holds it. */
    private static String[] mergeRow(
            String measure, int runs, Optional<Measurement> merge, Optional<Measurement> kubelet) {
        Budget budget = new Budget("< 1 ms", 1e6);
        Optional<Measurement> timed = merge.filter(Measurement::hasTime);
        Optional<Measurement> go = kubelet.filter(Measurement::hasTime);
        List<String> cells = new ArrayList<>(List.of(measure, budget.text()));
        cells.add(timed.map(m -> nanos((long) m.nanosPerOp()) + " ("
                        + go.map(k -> ratio(m.nanosPerOp(), k.nanosPerOp())).orElse("–") + ")")
                .orElse(NOT_RUN));
        for (int i = 1; i < runs; i++) {
            cells.add("–");
        }
        cells.add(go.map(k -> (k.extrapolated() ? "~" : "") + nanos((long) k.nanosPerOp()) + " kubelet's Go merge")
                .orElse(NOT_RUN));
        cells.add(timed.map(m -> budget.met(m.nanosPerOp())).orElse("–"));
        return cells.toArray(String[]::new);
    }

    public static void main(String[] args) throws IOException {
        List<Run> runs = new ArrayList<>();
        Optional<Path> jmh = Optional.empty();
        Optional<Path> kubelet = Optional.empty();
        Optional<Path> out = Optional.empty();
        for (int i = 0; i < args.length; i++) {
            if (i + 1 >= args.length) {
                usage(args[i] + " needs a value");
            }
            Optional<Path> v = Optional.of(Path.of(args[++i])).filter(Files::isRegularFile);
            switch (args[i - 1]) {
                case "--run" -> {
                    // NAME=FILE
                    String[] nameFile = args[i].split("=", 2);
                    if (nameFile.length != 2) {
                        usage("--run " + args[i] + ": expected NAME=FILE");
                    }
                    Path file = Path.of(nameFile[1]);
                    runs.add(new Run(
                            nameFile[0],
                            Files.isRegularFile(file) ? Optional.of(BudgetFigures.read(file)) : Optional.empty()));
                }
                case "--jmh" -> jmh = v;
                case "--kubelet" -> kubelet = v;
                case "--out" -> out = Optional.of(Path.of(args[i]));
                default -> usage("unknown option " + args[i - 1]);
            }
        }
        List<Measurement> podnuma = jmh.isPresent() ? ResultFiles.readJmh(jmh.get()) : List.of();
        Optional<Measurement> go =
                kubelet.isPresent() ? find(ResultFiles.readKubelet(kubelet.get()), MERGE) : Optional.empty();
        String table = render(runs, podnuma, go);
        System.out.print(table);
        if (out.isPresent()) {
            Files.writeString(out.get(), table);
        }
    }

    private static Optional<Measurement> find(List<Measurement> all, String id) {
        return all.stream().filter(m -> m.id().equals(id)).findFirst();
    }

    private static void usage(String problem) {
        System.err.println("error: " + problem
                + "; usage: BudgetTable [--run NAME=FILE]... [--jmh FILE] [--kubelet FILE] [--out FILE]");
        System.exit(2);
    }
}
