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
import java.util.function.ToDoubleFunction;

/**
 * One table of every budget of the issue "footprint and the last budgets": the agent under the JIT and with the JDK's
 * AOT cache side by side, each beside its baseline from the same run (idle JVM, empty call, the API server's watch
 * event, the kubelet's Go merge), and whether the budget is met. Figures only; nothing is asserted.
 *
 * <p>Usage: {@code BudgetTable [--jit FILE] [--aot FILE] [--jmh FILE] [--kubelet FILE] [--out FILE]}; a file not
 * given or not there leaves its cells "not run".
 */
public final class BudgetTable {

    static final String MERGE = "merge/16numa-3x-all";
    private static final String NOT_RUN = "not run";

    private BudgetTable() {}

    /** A budget: a figure is met when it is below {@code limit}, in the figure's own unit. */
    private record Budget(String text, double limit) {
        String met(double value) {
            return value < limit ? "yes" : "no";
        }
    }

    public static String render(
            Optional<BudgetFigures> jit,
            Optional<BudgetFigures> aot,
            Optional<Measurement> merge,
            Optional<Measurement> kubelet) {
        List<String[]> rows = new ArrayList<>();
        rows.add(agentRow(
                "Agent RSS, 110 pods",
                new Budget("< 96 MiB", 96 * 1024),
                jit,
                aot,
                BudgetFigures::agentRssKib,
                BudgetFigures::idleJvmRssKib,
                v -> mib((long) v),
                "idle JVM"));
        rows.add(agentRow(
                "Ready after start, 110 pods",
                new Budget("< 2 s", 2e9),
                jit,
                aot,
                BudgetFigures::readyColdNanos,
                BudgetFigures::readyEmptyNanos,
                v -> nanos((long) v),
                "agent, no pods"));
        rows.add(agentRow(
                "Ready after a restart (checkpoint)",
                new Budget("< 2 s", 2e9),
                jit,
                aot,
                BudgetFigures::readyRestartNanos,
                BudgetFigures::readyEmptyNanos,
                v -> nanos((long) v),
                "agent, no pods"));
        rows.add(agentRow(
                "Idle CPU, 110 pods",
                new Budget("< 5 m", 5),
                jit,
                aot,
                BudgetFigures::agentMillicores,
                BudgetFigures::idleJvmMillicores,
                v -> fmt(v) + " m",
                "idle JVM"));
        rows.add(agentRow(
                "PodResources List p99, 110 pods",
                new Budget("< 1 ms", 1e6),
                jit,
                aot,
                BudgetFigures::listP99Nanos,
                BudgetFigures::emptyListP99Nanos,
                v -> nanos((long) v),
                "empty List"));
        rows.add(agentRow(
                "Shared-pool grow p99 (from the call's return)",
                new Budget("< 100 ms", 100e6),
                jit,
                aot,
                BudgetFigures::growP99Nanos,
                BudgetFigures::growWatchP99Nanos,
                v -> nanos((long) v),
                "watch event (from the call sent)"));
        rows.add(agentRow(
                "Shared-pool shrink p99 (from the call's return)",
                new Budget("< 100 ms", 100e6),
                jit,
                aot,
                BudgetFigures::shrinkP99Nanos,
                BudgetFigures::shrinkWatchP99Nanos,
                v -> nanos((long) v),
                "watch event (from the call sent)"));
        rows.add(mergeRow(merge, kubelet));
        String[] head = {
            "Measure",
            "Budget",
            "JVM (JIT)",
            "AOT cache",
            "Baseline (same run)",
            "Ratio JIT",
            "Ratio AOT",
            "Met JIT / AOT"
        };
        return FigureTable.render(head, rows);
    }

    private static String[] agentRow(
            String measure,
            Budget budget,
            Optional<BudgetFigures> jit,
            Optional<BudgetFigures> aot,
            ToDoubleFunction<BudgetFigures> figure,
            ToDoubleFunction<BudgetFigures> baseline,
            java.util.function.DoubleFunction<String> format,
            String baselineName) {
        // each run has its own baseline (the same machine minutes as its figure); both are shown, JIT's first
        String base = jit.isPresent() || aot.isPresent()
                ? jit.map(f -> format.apply(baseline.applyAsDouble(f))).orElse("–") + " / "
                        + aot.map(f -> format.apply(baseline.applyAsDouble(f))).orElse("–") + " " + baselineName
                : NOT_RUN;
        return new String[] {
            measure,
            budget.text(),
            jit.map(f -> format.apply(figure.applyAsDouble(f))).orElse(NOT_RUN),
            aot.map(f -> format.apply(figure.applyAsDouble(f))).orElse(NOT_RUN),
            base,
            jit.map(f -> ratio(figure.applyAsDouble(f), baseline.applyAsDouble(f)))
                    .orElse("–"),
            aot.map(f -> ratio(figure.applyAsDouble(f), baseline.applyAsDouble(f)))
                    .orElse("–"),
            jit.map(f -> budget.met(figure.applyAsDouble(f))).orElse("–") + " / "
                    + aot.map(f -> budget.met(figure.applyAsDouble(f))).orElse("–")
        };
    }

    /** The merge runs in JMH's forked JVM under the JIT only: the AOT column does not apply. */
    private static String[] mergeRow(Optional<Measurement> merge, Optional<Measurement> kubelet) {
        Budget budget = new Budget("< 1 ms", 1e6);
        Optional<Measurement> timed = merge.filter(Measurement::hasTime);
        Optional<Measurement> go = kubelet.filter(Measurement::hasTime);
        String base = go.map(k -> (k.extrapolated() ? "~" : "") + nanos((long) k.nanosPerOp()) + " kubelet's Go merge")
                .orElse(NOT_RUN);
        return new String[] {
            "Merge, 16 NUMA x every fitting mask (180k hints)",
            budget.text(),
            timed.map(m -> nanos((long) m.nanosPerOp())).orElse(NOT_RUN),
            "–",
            base,
            timed.flatMap(m -> go.map(k -> ratio(m.nanosPerOp(), k.nanosPerOp())))
                    .orElse("–"),
            "–",
            timed.map(m -> budget.met(m.nanosPerOp())).orElse("–") + " / –"
        };
    }

    public static void main(String[] args) throws IOException {
        Optional<Path> jit = Optional.empty();
        Optional<Path> aot = Optional.empty();
        Optional<Path> jmh = Optional.empty();
        Optional<Path> kubelet = Optional.empty();
        Optional<Path> out = Optional.empty();
        for (int i = 0; i < args.length; i++) {
            if (i + 1 >= args.length) {
                usage(args[i] + " needs a value");
            }
            Optional<Path> v = Optional.of(Path.of(args[++i])).filter(Files::isRegularFile);
            switch (args[i - 1]) {
                case "--jit" -> jit = v;
                case "--aot" -> aot = v;
                case "--jmh" -> jmh = v;
                case "--kubelet" -> kubelet = v;
                case "--out" -> out = Optional.of(Path.of(args[i]));
                default -> usage("unknown option " + args[i - 1]);
            }
        }
        Optional<BudgetFigures> jitFigures =
                jit.isPresent() ? Optional.of(BudgetFigures.read(jit.get())) : Optional.empty();
        Optional<BudgetFigures> aotFigures =
                aot.isPresent() ? Optional.of(BudgetFigures.read(aot.get())) : Optional.empty();
        Optional<Measurement> merge = jmh.isPresent() ? find(ResultFiles.readJmh(jmh.get())) : Optional.empty();
        Optional<Measurement> go =
                kubelet.isPresent() ? find(ResultFiles.readKubelet(kubelet.get())) : Optional.empty();
        String table = render(jitFigures, aotFigures, merge, go);
        System.out.print(table);
        if (out.isPresent()) {
            Files.writeString(out.get(), table);
        }
    }

    private static Optional<Measurement> find(List<Measurement> all) {
        return all.stream().filter(m -> m.id().equals(MERGE)).findFirst();
    }

    private static void usage(String problem) {
        System.err.println("error: " + problem
                + "; usage: BudgetTable [--jit FILE] [--aot FILE] [--jmh FILE] [--kubelet FILE] [--out FILE]");
        System.exit(2);
    }
}
