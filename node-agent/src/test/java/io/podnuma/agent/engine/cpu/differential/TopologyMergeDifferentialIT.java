package io.podnuma.agent.engine.cpu.differential;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.podnuma.agent.engine.topology.NumaDistances;
import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyAdmission;
import io.podnuma.agent.engine.topology.TopologyHint;
import io.podnuma.agent.engine.topology.TopologyHints;
import io.podnuma.agent.engine.topology.TopologyManagerOptions;
import io.podnuma.agent.engine.topology.TopologyPolicy;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Differential test of the topology manager's hint merge against the kubelet itself: the same generated
 * merge cases go through {@link TopologyPolicy#admit} and through the kubelet v1.37.2's policy
 * {@code Merge} (the oracle's {@code merge} case type); merged mask, preferred and admission must be
 * identical, and a configuration one side refuses the other must refuse too, except for the named entries
 * of {@link MergeKnownDifferences}.
 *
 * <p>{@code -Dpodnuma.diff.merge.cases=N} sets the number of cases (default 3000),
 * {@code -Dpodnuma.diff.seed=S} the first seed (default 1; {@code random} for a time-based one). The
 * report goes to {@code target/kubeletoracle-merge/report.txt}.
 */
class TopologyMergeDifferentialIT {

    // node-agent: its ITs run there (module node-agent/it sets that working directory).
    private static final Path MODULE = Path.of("").toAbsolutePath();
    private static final Path SOURCE = MODULE.resolve("src/test/go/kubeletoracle");
    private static final Path BUILD = MODULE.resolve("target/kubeletoracle");
    private static final Path WORK = MODULE.resolve("target/kubeletoracle-merge");

    @Test
    void javaMergeGivesTheKubeletsAnswers() throws IOException, InterruptedException {
        Path go = KubeletOracle.goOrSkip(
                "TopologyMergeDifferentialIT", "TopologyPolicyTest and HintMergeEquivalenceTest");

        int count = Integer.getInteger("podnuma.diff.merge.cases", 3000);
        long base = KubeletOracle.firstSeed();
        List<MergeCase> cases =
                KubeletOracle.generate(new ArrayList<>(), base, count, new MergeCaseGenerator()::generate);

        long t0 = System.nanoTime();
        KubeletOracle oracle =
                KubeletOracle.build(go, SOURCE, BUILD, Duration.ofSeconds(10)).workingIn(WORK);
        long t1 = System.nanoTime();
        ObjectMapper json = new ObjectMapper();
        Map<String, MergeAnswer> kubelet =
                oracle.run(cases, MergeCase::id, MergeAnswer.class, MergeAnswer::id, MergeAnswer::hang, json);
        long t2 = System.nanoTime();
        Map<String, MergeAnswer.Result> java =
                KubeletOracle.javaAnswers(cases, MergeCase::id, c -> javaAnswer(c.merge()));
        long t3 = System.nanoTime();

        Map<String, Integer> allowed = new TreeMap<>();
        Map<String, Integer> coverage = new TreeMap<>();
        List<String> disagreements = new ArrayList<>();
        StringBuilder report = new StringBuilder();
        for (MergeCase c : cases) {
            MergeAnswer k = kubelet.get(c.id());
            MergeAnswer.Result j = java.get(c.id());
            count(coverage, c, k.merge());
            String diff = k.hang() ? "kubelet hung" : difference(j, k.merge());
            if (diff == null) {
                continue;
            }
            Optional<MergeKnownDifferences.Entry> known =
                    k.hang() ? Optional.empty() : MergeKnownDifferences.explaining(c, j, k.merge());
            String line = "case " + c.id() + " (rerun: -Dpodnuma.diff.merge.cases=1 -Dpodnuma.diff.seed="
                    + c.id().substring(1) + "): " + diff;
            if (known.isPresent()) {
                allowed.merge(known.get().name(), 1, Integer::sum);
                report.append("ALLOWED ").append(known.get().name()).append('\n');
            } else {
                disagreements.add(line);
                report.append("DISAGREEMENT\n");
            }
            KubeletOracle.appendCase(report, json, line, c, j, k);
        }
        int total = cases.size();
        int allowedCount = allowed.values().stream().mapToInt(i -> i).sum();
        int agreed = total - disagreements.size() - allowedCount;
        String summary = String.format(
                "kubelet merge differential: seed %d, %d cases; agreement %d/%d = %.2f%%, allowed differences %s,"
                        + " disagreements %d; go build %d ms, kubelet %d ms, java %d ms; coverage %s",
                base,
                total,
                agreed,
                total,
                100.0 * agreed / total,
                allowed,
                disagreements.size(),
                (t1 - t0) / 1_000_000,
                (t2 - t1) / 1_000_000,
                (t3 - t2) / 1_000_000,
                coverage);
        KubeletOracle.writeReport(WORK, "kubelet merge differential", summary, report);

        assertThat(disagreements)
                .as(
                        "cases where podnuma's merge and the kubelet's disagree (inputs and answers in %s)",
                        WORK.resolve("report.txt"))
                .isEmpty();
        // Guard against a vacuous run: every verdict must occur for every merging policy.
        for (String policy : List.of("best-effort", "restricted", "single-numa-node")) {
            assertThat(coverage.getOrDefault(policy + " preferred", 0))
                    .as("%s merges with a preferred result", policy)
                    .isGreaterThan(count / 50);
            assertThat(coverage.getOrDefault(policy + " not preferred", 0))
                    .as("%s merges with a not-preferred result", policy)
                    .isGreaterThan(count / 50);
        }
        assertThat(coverage.getOrDefault("prefer-closest merged", 0))
                .as("merges ordered by distance")
                .isGreaterThan(count / 10);
        assertThat(coverage.getOrDefault("refused", 0))
                .as("refused configurations")
                .isPositive();
    }

    /** The Java engine's answer, in the oracle's terms. */
    static MergeAnswer.Result javaAnswer(MergeCase.Merge m) {
        TopologyPolicy policy;
        try {
            TopologyManagerOptions options = TopologyManagerOptions.parse(m.options() == null ? Map.of() : m.options());
            NumaDistances distances = m.distances() == null ? null : NumaDistances.of(m.distances());
            policy = TopologyPolicy.create(
                    TopologyPolicyName.parse(m.policy()), options, NumaMask.of(m.nodes()), distances);
        } catch (IllegalArgumentException e) {
            return MergeAnswer.Result.refused(e.getMessage());
        }
        List<Map<String, List<TopologyHint>>> providers = new ArrayList<>();
        for (Map<String, List<MergeCase.Hint>> p : m.providers()) {
            if (p == null) {
                providers.add(null);
                continue;
            }
            Map<String, List<TopologyHint>> resources = new HashMap<>();
            p.forEach((resource, hints) -> resources.put(
                    resource,
                    hints == null
                            ? null
                            : hints.stream()
                                    .map(h -> new TopologyHint(
                                            h.mask() == null ? null : NumaMask.of(h.mask()), h.preferred()))
                                    .toList()));
            providers.add(resources);
        }
        TopologyAdmission admission = policy.admit(providers);
        // The compact hint form must be admitted exactly like the list form it packs (so as the kubelet).
        TopologyAdmission compact = policy.admit(compactForm(providers));
        if (!compact.equals(admission)) {
            throw new AssertionError("the compact hint form gives " + compact + " where the list form gives "
                    + admission + " for " + providers);
        }
        NumaMask mask = admission.hint().numaMask();
        return new MergeAnswer.Result(
                mask == null ? null : mask.nodes(), admission.hint().preferred(), admission.admitted(), null);
    }

    /** Every hint list as {@link TopologyHints}; providers, null and empty maps and null lists as they are. */
    private static List<Map<String, List<TopologyHint>>> compactForm(List<Map<String, List<TopologyHint>>> providers) {
        List<Map<String, List<TopologyHint>>> out = new ArrayList<>(providers.size());
        for (Map<String, List<TopologyHint>> provider : providers) {
            if (provider == null) {
                out.add(null);
                continue;
            }
            Map<String, List<TopologyHint>> resources = new HashMap<>();
            provider.forEach(
                    (resource, hints) -> resources.put(resource, hints == null ? null : TopologyHints.of(hints)));
            out.add(resources);
        }
        return out;
    }

    /** What differs, or null. Refusal messages are not compared: both sides word them their own way. */
    static String difference(MergeAnswer.Result java, MergeAnswer.Result kubelet) {
        if ((java.error() == null) != (kubelet.error() == null)) {
            return "refused: java=" + java.error() + " kubelet=" + kubelet.error();
        }
        if (java.error() != null) {
            return null;
        }
        List<String> diffs = new ArrayList<>();
        if (!Objects.equals(java.mask(), kubelet.mask())) {
            diffs.add("mask: java=" + show(java.mask()) + " kubelet=" + show(kubelet.mask()));
        }
        if (java.preferred() != kubelet.preferred()) {
            diffs.add("preferred: java=" + java.preferred() + " kubelet=" + kubelet.preferred());
        }
        if (java.admit() != kubelet.admit()) {
            diffs.add("admit: java=" + java.admit() + " kubelet=" + kubelet.admit());
        }
        return diffs.isEmpty() ? null : String.join("; ", diffs);
    }

    private static String show(List<Integer> mask) {
        return mask == null ? "any" : mask.toString();
    }

    private static void count(Map<String, Integer> coverage, MergeCase c, MergeAnswer.Result k) {
        MergeCase.Merge m = c.merge();
        if (k == null || k.error() != null) {
            coverage.merge("refused", 1, Integer::sum);
            return;
        }
        coverage.merge(m.policy() + (k.preferred() ? " preferred" : " not preferred"), 1, Integer::sum);
        if (!k.admit()) {
            coverage.merge("rejected", 1, Integer::sum);
        }
        if (m.options() != null && "true".equals(m.options().get("prefer-closest-numa-nodes"))) {
            coverage.merge("prefer-closest merged", 1, Integer::sum);
        }
        if (m.nodes().getLast() >= m.nodes().size()) {
            coverage.merge("non-contiguous ids", 1, Integer::sum);
        }
        boolean nullList = false;
        boolean emptyList = false;
        for (Map<String, List<MergeCase.Hint>> p : m.providers()) {
            if (p == null || p.isEmpty()) {
                coverage.merge("providers without preference", 1, Integer::sum);
                continue;
            }
            for (List<MergeCase.Hint> hints : p.values()) {
                nullList |= hints == null;
                emptyList |= hints != null && hints.isEmpty();
            }
        }
        if (nullList) {
            coverage.merge("cases with a null list", 1, Integer::sum);
        }
        if (emptyList) {
            coverage.merge("cases with an empty list", 1, Integer::sum);
        }
    }
}
