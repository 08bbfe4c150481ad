package io.podnuma.agent.engine.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CombinationsTest {

    @Test
    void visitsEverySubsetInLexicographicOrder() {
        List<String> seen = new ArrayList<>();
        Combinations.forEach(new int[] {5, 6, 7, 8}, 2, s -> seen.add(java.util.Arrays.toString(s.toArray())) || true);
        assertThat(seen).containsExactly("[5, 6]", "[5, 7]", "[5, 8]", "[6, 7]", "[6, 8]", "[7, 8]");
    }

    @Test
    void stopsWhenTheVisitorSaysSo() {
        int[] count = {0};
        Combinations.forEach(new int[] {0, 1, 2, 3, 4}, 3, s -> ++count[0] < 4);
        assertThat(count[0]).isEqualTo(4);
    }

    /**
     * What a kept first subset reads after the whole walk, as printed by the same recursion written
     * in Go 1.26 (append onto a shared prefix): Go reuses spare capacity, so subsets of 4, 6 and 7
     * elements are overwritten by later subsets sharing their prefix.
     */
    @ParameterizedTest
    @CsvSource({
        "1, '[0]'",
        "2, '[0, 1]'",
        "3, '[0, 1, 2]'",
        "4, '[0, 1, 2, 7]'",
        "5, '[0, 1, 2, 3, 4]'",
        "6, '[0, 1, 2, 3, 4, 7]'",
        "7, '[0, 1, 2, 3, 4, 6, 7]'",
        "8, '[0, 1, 2, 3, 4, 5, 6, 7]'"
    })
    void keptSubsetsAliasLikeGoSlices(int k, String expected) {
        Combinations.Slice[] kept = {null};
        Combinations.forEach(new int[] {0, 1, 2, 3, 4, 5, 6, 7}, k, s -> {
            if (kept[0] == null) {
                kept[0] = s;
            }
            return true;
        });
        assertThat(java.util.Arrays.toString(kept[0].toArray())).isEqualTo(expected);
    }
}
