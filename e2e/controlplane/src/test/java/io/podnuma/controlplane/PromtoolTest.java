package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.controlplane.Promtool.LintFinding;
import io.podnuma.controlplane.Promtool.MetricsVerdict;
import io.podnuma.controlplane.Promtool.Verdict;
import org.junit.jupiter.api.Test;

/** How promtool's exit codes and output become typed answers (the real promtool runs in PromtoolIT). */
class PromtoolTest {

    @Test
    void lintFindingsAreOneMetricAndProblemPerLine() {
        String stderr = """
                podnuma_pins counter metrics should have "_total" suffix
                podnuma_latency_ms no help text
                podnuma_latency_ms use base unit "seconds" instead of "milliseconds"
                """;

        Promtool.MetricsCheck check = Promtool.MetricsCheck.parse(3, stderr);

        assertThat(check.verdict()).isEqualTo(MetricsVerdict.LINT_FINDINGS);
        assertThat(check.findings())
                .containsExactly(
                        new LintFinding("podnuma_pins", "counter metrics should have \"_total\" suffix"),
                        new LintFinding("podnuma_latency_ms", "no help text"),
                        new LintFinding("podnuma_latency_ms", "use base unit \"seconds\" instead of \"milliseconds\""));
    }

    @Test
    void exitZeroIsCleanAndExitOneIsTextPromtoolCouldNotParse() {
        assertThat(Promtool.MetricsCheck.parse(0, "")).satisfies(check -> {
            assertThat(check.verdict()).isEqualTo(MetricsVerdict.CLEAN);
            assertThat(check.findings()).isEmpty();
        });
        String parseError = "error while linting: text format parsing error in line 1: invalid metric name\n";
        assertThat(Promtool.MetricsCheck.parse(1, parseError)).satisfies(check -> {
            assertThat(check.verdict()).isEqualTo(MetricsVerdict.UNPARSABLE);
            assertThat(check.findings()).as("a parse error is no finding").isEmpty();
            assertThat(check.output()).isEqualTo(parseError);
        });
    }

    @Test
    void aRunPassesOnlyOnExitZeroAndKeepsBothStreams() {
        assertThat(Promtool.Run.of(new CommandResult(0, "Unit Testing:  t.yml\n  SUCCESS\n", "")))
                .isEqualTo(new Promtool.Run(Verdict.PASSED, 0, "Unit Testing:  t.yml\n  SUCCESS"));
        Promtool.Run failed = Promtool.Run.of(new CommandResult(1, "  FAILED:\n", "    alertname: PodnumaAgentDown\n"));
        assertThat(failed.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(failed.output()).contains("FAILED:", "alertname: PodnumaAgentDown");
        assertThat(Promtool.Run.of(new CommandResult(3, "", "lint")).verdict()).isEqualTo(Verdict.FAILED);
    }
}
