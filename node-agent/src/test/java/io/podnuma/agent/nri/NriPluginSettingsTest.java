package io.podnuma.agent.nri;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NriPluginSettingsTest {

    @ParameterizedTest(name = "name ''{0}'' index ''{1}'' → {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "podnuma | 90 | ok",
                "pod_numa.v1+x-2 | 00 | ok",
                "A | 99 | ok",
                "'' | 90 | pluginName '' must be one or more",
                "pod numa | 90 | pluginName 'pod numa' must be",
                "podnuma/agent | 90 | pluginName 'podnuma/agent' must be",
                "pödnuma | 90 | pluginName 'pödnuma' must be",
                "podnuma | 9 | pluginIndex '9' must be exactly two digits",
                "podnuma | 100 | pluginIndex '100' must be exactly two digits",
                "podnuma | 1a | pluginIndex '1a' must be exactly two digits",
                "podnuma | '' | pluginIndex '' must be exactly two digits",
                "podnuma | -1 | pluginIndex '-1' must be exactly two digits",
            })
    void nameAndIndexFollowTheRuntimesRules(String name, String index, String outcome) {
        if (outcome.equals("ok")) {
            var s = settings(name, index, Duration.ofMillis(100), Duration.ofSeconds(5));
            assertThat(s.qualifiedName()).isEqualTo(index + "-" + name);
        } else {
            assertThatThrownBy(() -> settings(name, index, Duration.ofMillis(100), Duration.ofSeconds(5)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith(outcome);
        }
    }

    @ParameterizedTest(name = "{0}..{1}")
    @CsvSource({"0, 1000, reconnectMin", "-5, 1000, reconnectMin", "500, 100, reconnectMax"})
    void theBackoffBoundsAreChecked(long minMillis, long maxMillis, String field) {
        assertThatThrownBy(() -> settings("podnuma", "90", Duration.ofMillis(minMillis), Duration.ofMillis(maxMillis)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(field);
    }

    private static NriPluginSettings settings(String name, String index, Duration min, Duration max) {
        return new NriPluginSettings(Path.of("/var/run/nri/nri.sock"), name, index, min, max);
    }
}
