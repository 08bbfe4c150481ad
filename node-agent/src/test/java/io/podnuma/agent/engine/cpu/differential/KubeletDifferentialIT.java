package io.podnuma.agent.engine.cpu.differential;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.sysfs.FakeMachine;
import io.podnuma.agent.sysfs.Fixtures;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Differential test against the kubelet itself: the same generated cases go through podnuma's static
 * policy and through the kubelet v1.37.2's ({@code src/test/go/kubeletoracle}, built with
 * {@code go build}); CPU sets, errors, hints, reservations and shared pools must be identical,
 * except for the named entries of {@link KnownDifferences}.
 *
 * <p>{@code -Dpodnuma.diff.cases=N} sets the number of cases (default 1000),
 * {@code -Dpodnuma.diff.seed=S} the first seed (default 1; {@code random} for a time-based one).
 * Case {@code s<seed>} is regenerated alone by {@code -Dpodnuma.diff.cases=1 -Dpodnuma.diff.seed=<seed>}.
 * The report with every disagreement goes to {@code target/kubeletoracle/report.txt}.
 */
class KubeletDifferentialIT {

    // node-agent: its ITs run there (module node-agent/it sets that working directory).
    private static final Path MODULE = Path.of("").toAbsolutePath();
    private static final Path SOURCE = MODULE.resolve("src/test/go/kubeletoracle");
    private static final Path WORK = MODULE.resolve("target/kubeletoracle");

    @Test
    void javaEngineGivesTheKubeletsAnswers() throws IOException, InterruptedException {
        Path go = KubeletOracle.goOrSkip(
                "KubeletDifferentialIT", "the table tests in StaticPolicyTest and TakeByTopologyTest");

        int count = Integer.getInteger("podnuma.diff.cases", 1000);
        long base = KubeletOracle.firstSeed();
        List<DiffCase> cases = KubeletOracle.generate(
                new ArrayList<>(FixedCases.all()), base, count, new CaseGenerator(fixtures())::generate);

        long t0 = System.nanoTime();
        KubeletOracle oracle = KubeletOracle.build(go, SOURCE, WORK, Duration.ofSeconds(3));
        long t1 = System.nanoTime();
        ObjectMapper json = new ObjectMapper();
        Map<String, Outcome> kubelet = oracle.run(cases, json);
        long t2 = System.nanoTime();
        Map<String, Outcome> java = KubeletOracle.javaAnswers(cases, DiffCase::id, JavaEngineRunner::run);
        long t3 = System.nanoTime();

        Tally tally = new Tally();
        List<Comparison> disagreements = new ArrayList<>();
        StringBuilder report = new StringBuilder();
        for (DiffCase c : cases) {
            Comparison cmp = Comparison.of(c, java.get(c.id()), kubelet.get(c.id()));
            tally.count(cmp);
            if (cmp.agrees()) {
                continue;
            }
            Optional<List<KnownDifferences.Entry>> known = KnownDifferences.explaining(cmp);
            if (known.isPresent()) {
                String names = String.join(
                        "+",
                        known.get().stream().map(KnownDifferences.Entry::name).toList());
                tally.allowed.merge(names, 1, Integer::sum);
                report.append("ALLOWED ").append(names).append('\n');
                describe(report, cmp, json);
            } else {
                disagreements.add(cmp);
                report.append("DISAGREEMENT\n");
                describe(report, cmp, json);
            }
        }
        int total = cases.size();
        int agreed = total
                - disagreements.size()
                - tally.allowed.values().stream().mapToInt(i -> i).sum();
        String summary = String.format(
                "kubelet differential: seed %d, %d cases (%d on sysfs fixtures, %d on asymmetric machines, %d with"
                        + " distribute-cpus-across-numa on 5+ NUMA nodes, %d refused configurations), %d"
                        + " operations (%d admissions, %d hint lists, %d allocation errors, %d removals);"
                        + " agreement %d/%d = %.2f%%, allowed differences %s, disagreements %d;"
                        + " go build %d ms, kubelet %d ms, java %d ms; options used %s",
                base,
                total,
                tally.fixtureCases,
                tally.asymmetric,
                tally.wideDistributed,
                tally.refused,
                tally.ops,
                tally.adds,
                tally.hintLists,
                tally.allocationErrors,
                tally.removes,
                agreed,
                total,
                100.0 * agreed / total,
                tally.allowed,
                disagreements.size(),
                (t1 - t0) / 1_000_000,
                (t2 - t1) / 1_000_000,
                (t3 - t2) / 1_000_000,
                tally.options);
        KubeletOracle.writeReport(WORK, "kubelet differential", summary, report);

        StringBuilder first = new StringBuilder();
        for (Comparison d : disagreements.subList(0, Math.min(5, disagreements.size()))) {
            first.append("case ")
                    .append(d.input().id())
                    .append(" (")
                    .append(d.input().machine())
                    .append(")\n");
            d.differences().stream()
                    .limit(4)
                    .forEach(x -> first.append("  ")
                            .append(x.length() > 300 ? x.substring(0, 300) + "..." : x)
                            .append('\n'));
        }
        assertThat(disagreements.size())
                .as(
                        "cases where podnuma and the kubelet disagree (inputs and both answers in %s); first:%n%s",
                        WORK.resolve("report.txt"), first)
                .isZero();
        // Guard against a vacuous run: most cases must reach allocations and compare something.
        assertThat(tally.adds).as("admissions compared").isGreaterThan(count);
        assertThat(tally.hintLists).as("hint lists compared").isGreaterThan(count / 2);
        // The hand-made hang case proves the restart after a hang and its allow-list entry work.
        assertThat(kubelet.get("fixed-kubelet-hang").hang())
                .as("the kubelet hangs on fixed-kubelet-hang")
                .isTrue();
    }

    private static Map<String, CpuTopology> fixtures() {
        Map<String, CpuTopology> out = new TreeMap<>();
        for (FakeMachine m : FakeMachine.ALL) {
            out.put(m.name(), Fixtures.topology(m));
        }
        return out;
    }

    private static void describe(StringBuilder sb, Comparison c, ObjectMapper json) {
        try {
            String id = c.input().id();
            sb.append("case ")
                    .append(id)
                    .append(
                            id.startsWith("s")
                                    ? " (rerun: -Dpodnuma.diff.cases=1 -Dpodnuma.diff.seed=" + id.substring(1) + ")"
                                    : " (in FixedCases)")
                    .append(", machine: ")
                    .append(c.input().machine())
                    .append('\n');
            for (String d : c.differences()) {
                sb.append("  differs: ").append(d).append('\n');
            }
            if (c.kubelet().hang()) {
                sb.append("  kubelet hung at op ")
                        .append(c.kubelet().ops().size())
                        .append('\n');
            }
            sb.append("  input:   ").append(json.writeValueAsString(c.input())).append('\n');
            sb.append("  java:    ").append(json.writeValueAsString(c.java())).append('\n');
            sb.append("  kubelet: ")
                    .append(json.writeValueAsString(c.kubelet()))
                    .append("\n\n");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Counts of what was compared, so the summary shows the coverage. */
    private static final class Tally {
        int fixtureCases;
        int asymmetric;
        int wideDistributed;
        int refused;
        int ops;
        int adds;
        int removes;
        int hintLists;
        int allocationErrors;
        final Map<String, Integer> allowed = new TreeMap<>();
        final Map<String, Integer> options = new TreeMap<>();

        void count(Comparison c) {
            if (c.input().machine().startsWith("fixture ")) {
                fixtureCases++;
            }
            if (KnownDifferences.asymmetric(c.input().topology())) {
                asymmetric++;
            }
            if ("true".equals(c.input().options().get("distribute-cpus-across-numa"))
                    && c.input().topology().numNumaNodes() >= 5) {
                wideDistributed++;
            }
            if (c.kubelet().createError() != null) {
                refused++;
            }
            c.input().options().forEach((k, v) -> {
                if ("true".equals(v)) {
                    options.merge(k, 1, Integer::sum);
                }
            });
            List<DiffCase.Op> inOps = c.input().ops();
            for (int i = 0; i < c.kubelet().ops().size(); i++) {
                ops++;
                Outcome.OpOutcome k = c.kubelet().ops().get(i);
                if (inOps.get(i).isAdd()) {
                    adds++;
                    if (inOps.get(i).hints()) {
                        hintLists++;
                    }
                    if (k.errorReason() != null) {
                        allocationErrors++;
                    }
                } else {
                    removes++;
                }
            }
        }
    }
}
