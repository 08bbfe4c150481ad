package io.podnuma.agent.engine.cpu.differential;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The merge differential harness without Go: case generation, the Java side's reading of the kubelet's
 * input conventions, the comparison and the allow-list.
 */
class TopologyMergeHarnessTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static MergeCase.Merge merge(
            String policy, Map<String, String> options, List<Map<String, List<MergeCase.Hint>>> providers) {
        return new MergeCase.Merge(List.of(0, 1), null, policy, options, providers);
    }

    private static MergeCase.Hint hint(boolean preferred, Integer... nodes) {
        return new MergeCase.Hint(List.of(nodes), preferred);
    }

    @Test
    void sameSeedSameCaseAndCombinationsStayCapped() throws Exception {
        MergeCaseGenerator generator = new MergeCaseGenerator();
        for (long seed = 1; seed <= 300; seed++) {
            MergeCase c = generator.generate(seed);
            assertThat(JSON.writeValueAsString(generator.generate(seed))).isEqualTo(JSON.writeValueAsString(c));
            long product = 1;
            for (Map<String, List<MergeCase.Hint>> p : c.merge().providers()) {
                if (p != null) {
                    for (List<MergeCase.Hint> hints : p.values()) {
                        product *= hints == null || hints.isEmpty() ? 1 : hints.size();
                    }
                }
            }
            assertThat(product)
                    .as("combinations of case %s", c.id())
                    .isLessThanOrEqualTo(MergeCaseGenerator.MAX_COMBINATIONS);
            assertThat(c.merge().nodes()).hasSizeBetween(2, 8).isSorted();
        }
    }

    @Test
    void nullAndEmptyListsAndProvidersReachTheOracleDistinctly() throws Exception {
        Map<String, List<MergeCase.Hint>> provider = new HashMap<>();
        provider.put("cpu", null);
        provider.put("memory", List.of());
        provider.put("example.com/gpu", List.of(new MergeCase.Hint(null, true), new MergeCase.Hint(List.of(), false)));
        List<Map<String, List<MergeCase.Hint>>> providers = new ArrayList<>(Arrays.asList(provider, null, Map.of()));
        String line = JSON.writeValueAsString(new MergeCase("x", merge("restricted", null, providers)));
        assertThat(line)
                .contains("\"cpu\":null", "\"memory\":[]", "{\"mask\":null,\"preferred\":true}")
                .contains("{\"mask\":[],\"preferred\":false}", "\"providers\":[{")
                .contains(",null,{}]")
                .doesNotContain("distances", "options");
    }

    @Test
    void javaSideFollowsTheKubeletsConventions() {
        Map<String, List<MergeCase.Hint>> cannot = new HashMap<>();
        cannot.put("memory", List.of());
        Map<String, List<MergeCase.Hint>> cpu = Map.of("cpu", List.of(hint(true, 1), hint(false, 0, 1)));
        // An empty list (fits nowhere) makes every result not preferred: restricted rejects.
        MergeAnswer.Result rejected =
                TopologyMergeDifferentialIT.javaAnswer(merge("restricted", null, List.of(cpu, cannot)));
        assertThat(rejected).isEqualTo(new MergeAnswer.Result(List.of(1), false, false, null));
        // A null list is no preference: the preferred single node wins.
        Map<String, List<MergeCase.Hint>> none = new HashMap<>();
        none.put("memory", null);
        assertThat(TopologyMergeDifferentialIT.javaAnswer(merge("restricted", null, Arrays.asList(cpu, none, null))))
                .isEqualTo(new MergeAnswer.Result(List.of(1), true, true, null));
        // single-numa-node reports a result covering every node as "any".
        Map<String, List<MergeCase.Hint>> any = Map.of("cpu", List.of(new MergeCase.Hint(null, true)));
        assertThat(TopologyMergeDifferentialIT.javaAnswer(merge("single-numa-node", null, List.of(any))))
                .isEqualTo(new MergeAnswer.Result(null, true, true, null));
        assertThat(TopologyMergeDifferentialIT.javaAnswer(
                                merge("best-effort", Map.of("prefer-closest-numa-nodes", "true"), List.of(cpu)))
                        .error())
                .contains("prefer-closest-numa-nodes", "distances");
    }

    @Test
    void everyFieldCountsAsADifferenceButRefusalWordingDoesNot() {
        MergeAnswer.Result base = new MergeAnswer.Result(List.of(0), true, true, null);
        assertThat(TopologyMergeDifferentialIT.difference(base, base)).isNull();
        assertThat(TopologyMergeDifferentialIT.difference(base, new MergeAnswer.Result(null, true, true, null)))
                .isEqualTo("mask: java=[0] kubelet=any");
        assertThat(TopologyMergeDifferentialIT.difference(base, new MergeAnswer.Result(List.of(0), false, true, null)))
                .startsWith("preferred:");
        assertThat(TopologyMergeDifferentialIT.difference(base, new MergeAnswer.Result(List.of(0), true, false, null)))
                .startsWith("admit:");
        assertThat(TopologyMergeDifferentialIT.difference(base, MergeAnswer.Result.refused("no")))
                .startsWith("refused:");
        assertThat(TopologyMergeDifferentialIT.difference(
                        MergeAnswer.Result.refused("one wording"), MergeAnswer.Result.refused("another")))
                .isNull();
    }

    @Test
    void allowListExplainsOnlyItsOwnShape() {
        MergeCase noDistances =
                new MergeCase("a", merge("single-numa-node", Map.of("prefer-closest-numa-nodes", "true"), List.of()));
        MergeAnswer.Result merged = new MergeAnswer.Result(null, true, true, null);
        MergeAnswer.Result refused = MergeAnswer.Result.refused("error getting NUMA distances from cadvisor");
        assertThat(MergeKnownDifferences.explaining(noDistances, merged, refused))
                .contains(MergeKnownDifferences.NO_DISTANCES_NEEDED_FOR_SINGLE_NODE);
        MergeCase restricted =
                new MergeCase("b", merge("restricted", Map.of("prefer-closest-numa-nodes", "true"), List.of()));
        assertThat(MergeKnownDifferences.explaining(restricted, merged, refused))
                .isEmpty();
        // A different merged mask is never explained.
        MergeCase plain = new MergeCase("c", merge("best-effort", null, List.of()));
        assertThat(MergeKnownDifferences.explaining(
                        plain, merged, new MergeAnswer.Result(List.of(0), true, true, null)))
                .isEmpty();
    }
}
