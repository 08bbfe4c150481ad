package io.podnuma.securemetrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BearerTokenTest {

    @ParameterizedTest(name = "[{0}] -> [{1}]")
    @CsvSource(
            nullValues = "NULL",
            value = {
                "NULL, NULL",
                "'', NULL",
                "Bearer, NULL",
                "'Bearer ', NULL",
                "Bearer abc.def-ghi_jkl, abc.def-ghi_jkl",
                "bearer abc, abc",
                "BEARER   abc  , abc",
                "Basic dXNlcjpwYXNz, NULL",
                "Bearer a b, NULL",
                "Bearerabc, NULL",
            })
    void readsTheTokenOfABearerHeaderOnly(String header, String token) {
        assertThat(BearerToken.fromHeader(header).map(BearerToken::value)).isEqualTo(Optional.ofNullable(token));
    }

    @org.junit.jupiter.api.Test
    void refusesAnOversizedTokenAndNeverPrintsOne() {
        assertThat(BearerToken.fromHeader("Bearer " + "a".repeat(BearerToken.MAX_LENGTH + 1)))
                .isEmpty();
        assertThat(BearerToken.fromHeader("Bearer " + "a".repeat(BearerToken.MAX_LENGTH)))
                .isPresent();
        assertThat(new BearerToken("secret-value").toString())
                .doesNotContain("secret")
                .contains("12");
        assertThat(new BearerToken("x").digest()).hasSize(64).isNotEqualTo(new BearerToken("y").digest());
    }
}
