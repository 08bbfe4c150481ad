package io.podnuma.crds;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Offline sanity of the rejection table that CrdValidationIT runs against the API server. */
class InvalidPolicyCaseTest {

    static java.util.List<InvalidPolicyCase> cases() {
        return InvalidPolicyCase.all();
    }

    @Test
    void thereAreAtLeastFifteenCases() {
        assertThat(cases()).hasSizeGreaterThanOrEqualTo(15);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void eachNamesItsObjectAfterItsFileAndExpectsSomething(InvalidPolicyCase c) {
        assertThat(c.expected()).as("# expect: lines").isNotEmpty().doesNotContain("TODO");
        assertThat(c.yaml()).contains("kind: NumaResourcePolicy").contains("  name: " + c.name() + "\n");
        assertThat(c.yaml().lines().findFirst().orElseThrow())
                .as("first line explains the case")
                .startsWith("# ")
                .doesNotStartWith("# expect:");
    }
}
