package io.podnuma.bench.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScaleBenchTest {

    @Test
    void aPolicyCountsAsReconciledWhenTheOperatorsGaugeHasItsExpectedNodes() {
        String metrics = """
                # HELP podnuma_operator_nodes Nodes per policy and state
                # TYPE podnuma_operator_nodes gauge
                podnuma_operator_nodes{policy="scale-00",state="matched"} 0.0
                podnuma_operator_nodes{policy="scale-00",state="ready"} 0.0
                podnuma_operator_nodes{policy="scale-01",state="matched"} 100.0
                podnuma_operator_nodes{policy="scale-02",state="matched"} 90.0
                podnuma_operator_nodes{policy="other",state="matched"} 100.0
                """;
        assertThat(ScaleBench.reconciledPolicies(
                        metrics, Map.of("scale-00", 0, "scale-01", 100, "scale-02", 100, "scale-03", 100)))
                .isEqualTo(2);
    }

    @Test
    void optionsChangeTheSettingsAndBadOnesSayWhatIsAllowed() {
        ScaleBench.Settings s = ScaleBench.Settings.quick()
                .with("--nodes", "1000")
                .with("--policies", "20")
                .with("--steady-seconds", "30")
                .with("--jvm-flags", " -Xmx256m  -XX:+UseSerialGC ");
        assertThat(s.nodes()).isEqualTo(1000);
        assertThat(s.policies()).isEqualTo(20);
        assertThat(s.steady()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.jvmFlags()).isEqualTo(List.of("-Xmx256m", "-XX:+UseSerialGC"));
        assertThat(ScaleBench.Settings.full().nodes()).isEqualTo(5_000);
        assertThatThrownBy(() -> s.with("--nodes", "many")).hasMessageContaining("a whole number");
        assertThatThrownBy(() -> s.with("--pods", "1")).hasMessageContaining("allowed --quick, --nodes");
    }
}
