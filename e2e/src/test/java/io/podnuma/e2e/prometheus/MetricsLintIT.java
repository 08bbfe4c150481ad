package io.podnuma.e2e.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.controlplane.Promtool;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code promtool check metrics} (Prometheus's own lint: names, suffixes, units, HELP) of what the real agent and the
 * real operator serve on {@code /metrics} while they run a policy on the local control plane.
 */
@ExtendWith(ControlPlaneExtension.class)
class MetricsLintIT {

    @TempDir
    static Path dir;

    private static PodnumaOnKwok podnuma;
    private static Promtool promtool;

    @BeforeAll
    static void start(ControlPlane cp) throws Exception {
        Optional<String> why = PodnumaOnKwok.unavailableReason();
        Assumptions.assumeTrue(why.isEmpty(), () -> "the agent cannot run here: " + why.orElse(""));
        promtool = Promtool.in(cp.binDir());
        podnuma = PodnumaOnKwok.start(cp, dir, "lint");
    }

    @AfterAll
    static void stop(ControlPlane cp) throws Exception {
        if (podnuma != null) {
            podnuma.stop(cp);
        }
    }

    @Test
    void theAgentsMetricsHaveNoLintFindings() throws Exception {
        String metrics = podnuma.agent.metrics();
        assertThat(metrics).contains("podnuma_");

        Promtool.MetricsCheck check = promtool.checkMetrics(metrics);

        assertThat(check.findings()).as(check.output()).isEmpty();
        assertThat(check.verdict()).isEqualTo(Promtool.MetricsVerdict.CLEAN);
    }

    @Test
    void theOperatorsMetricsHaveNoLintFindingsOnceItReconciledAPolicy() throws Exception {
        // The policy's node gauges appear with its first reconcile: lint them too, not only the SDK's and JVM's.
        await().atMost(Duration.ofSeconds(60))
                .ignoreExceptions()
                .untilAsserted(() -> assertThat(podnuma.operator.metrics())
                        .contains("podnuma_operator_nodes{policy=\"" + podnuma.policy + "\""));
        String metrics = podnuma.operator.metrics();

        Promtool.MetricsCheck check = promtool.checkMetrics(metrics);

        assertThat(check.findings()).as(check.output()).isEmpty();
        assertThat(check.verdict()).isEqualTo(Promtool.MetricsVerdict.CLEAN);
    }
}
