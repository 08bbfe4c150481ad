package io.podnuma.e2e.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.controlplane.Promtool;
import io.podnuma.controlplane.Promtool.LintFinding;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
 *
 * <p>One kind of finding is known and kept on purpose, everything else fails: the agent's three kubelet names (spec
 * §9 mirrors the kubelet's resource-manager metrics under {@code podnuma_}, and the kubelet's own names break two lint
 * rules). The operator has none: the Java Operator SDK's meters, which it registers without a description, get one
 * from the operator ({@code SdkMeterDescriptions}).
 */
@ExtendWith(ControlPlaneExtension.class)
class MetricsLintIT {

    /** The kubelet's names as spec §9 mirrors them; a rename would break dashboards written for the kubelet's. */
    static final List<LintFinding> KUBELET_NAMES = List.of(
            new LintFinding(
                    "podnuma_container_aligned_compute_resources_count",
                    "non-histogram and non-summary metrics should not have \"_count\" suffix"),
            new LintFinding(
                    "podnuma_cpu_manager_exclusive_cpu_allocation_count",
                    "non-histogram and non-summary metrics should not have \"_count\" suffix"),
            new LintFinding(
                    "podnuma_topology_manager_admission_duration_ms",
                    "metric names should not contain abbreviated units"));

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
    void theAgentsMetricsHaveNoLintFindingsBeyondTheKubeletsOwnNames() throws Exception {
        String metrics = podnuma.agent.metrics();
        assertThat(metrics).contains("podnuma_pin_latency_seconds_bucket");

        Promtool.MetricsCheck check = promtool.checkMetrics(metrics);

        assertThat(check.findings()).as(check.output()).containsExactlyInAnyOrderElementsOf(KUBELET_NAMES);
    }

    @Test
    void theOperatorsOwnMetricsHaveNoLintFindingsOnceItReconciledAPolicy() throws Exception {
        // The policy's node gauges appear with its first reconcile: lint them too, not only the SDK's and JVM's.
        await().atMost(Duration.ofSeconds(60))
                .ignoreExceptions()
                .untilAsserted(() -> assertThat(podnuma.operator.metrics())
                        .contains("podnuma_operator_nodes{policy=\"" + podnuma.policy + "\""));
        String metrics = podnuma.operator.metrics();

        Promtool.MetricsCheck check = promtool.checkMetrics(metrics);

        assertThat(check.verdict()).as(check.output()).isNotEqualTo(Promtool.MetricsVerdict.UNPARSABLE);
        assertThat(check.findings()).as(check.output()).isEmpty();
    }
}
