package io.podnuma.controlplane;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The real {@code promtool} of the control-plane bin dir: lint an exposition text, run rule unit tests, check a
 * configuration. Each answer is typed; the raw output stays in it for a failure message.
 */
public final class Promtool {

    private static final Duration TIMEOUT = Duration.ofMinutes(1);
    /** promtool's exit codes (cmd/promtool): 0 success, 1 failure, 3 lint findings. */
    static final int EXIT_SUCCESS = 0;

    static final int EXIT_LINT = 3;

    private final Path executable;

    private Promtool(Path executable) {
        this.executable = executable;
    }

    /** The promtool of {@code binDir} ({@link ControlPlane#binDir()}). */
    public static Promtool in(Path binDir) {
        Path executable = binDir.resolve("promtool");
        if (!Files.isExecutable(executable)) {
            throw new IllegalStateException("no promtool in " + binDir + "; run e2e/controlplane/"
                    + ControlPlaneBinaries.SCRIPT + " to build it");
        }
        return new Promtool(executable);
    }

    public enum Verdict {
        PASSED,
        FAILED
    }

    /** What {@code check metrics} found: nothing, lint findings, or text it could not parse. */
    public enum MetricsVerdict {
        CLEAN,
        LINT_FINDINGS,
        UNPARSABLE
    }

    /** One lint problem of one metric family, e.g. {@code foo_seconds} / {@code counter metrics should have "_total" suffix}. */
    public record LintFinding(String metric, String problem) {}

    /** The answer of {@code promtool check metrics}; {@code output} is what it printed (the findings are on stderr). */
    public record MetricsCheck(MetricsVerdict verdict, List<LintFinding> findings, String output) {
        public MetricsCheck {
            findings = List.copyOf(findings);
        }

        /** promtool prints one {@code <metric> <problem>} line per finding and exits 3; 1 is a parse error. */
        static MetricsCheck parse(int exitCode, String stderr) {
            MetricsVerdict verdict = switch (exitCode) {
                case EXIT_SUCCESS -> MetricsVerdict.CLEAN;
                case EXIT_LINT -> MetricsVerdict.LINT_FINDINGS;
                default -> MetricsVerdict.UNPARSABLE;
            };
            List<LintFinding> findings = new ArrayList<>();
            if (verdict == MetricsVerdict.LINT_FINDINGS) {
                for (String line : stderr.lines().map(String::strip).toList()) {
                    int space = line.indexOf(' ');
                    if (space > 0) {
                        findings.add(new LintFinding(line.substring(0, space), line.substring(space + 1)));
                    }
                }
            }
            return new MetricsCheck(verdict, findings, stderr);
        }
    }

    /** The answer of {@code test rules} or {@code check config}: passed or not, and what promtool said. */
    public record Run(Verdict verdict, int exitCode, String output) {
        static Run of(CommandResult result) {
            return new Run(
                    result.exitCode() == EXIT_SUCCESS ? Verdict.PASSED : Verdict.FAILED,
                    result.exitCode(),
                    (result.stdout() + result.stderr()).strip());
        }
    }

    /** {@code promtool check metrics} of an exposition text (what a {@code /metrics} endpoint answered). */
    public MetricsCheck checkMetrics(String exposition) {
        CommandResult result =
                Commands.run(List.of(executable.toString(), "check", "metrics"), Map.of(), exposition, TIMEOUT);
        return MetricsCheck.parse(result.exitCode(), result.stderr());
    }

    /** {@code promtool test rules} of rule unit-test files (each names its rule files, relative to itself). */
    public Run testRules(Path... testFiles) {
        List<String> command = new ArrayList<>(List.of(executable.toString(), "test", "rules"));
        for (Path file : testFiles) {
            command.add(file.toString());
        }
        return Run.of(Commands.run(command, Map.of(), null, TIMEOUT));
    }

    /** {@code promtool check config} of a Prometheus configuration file and the rule files it names. */
    public Run checkConfig(Path configFile) {
        return Run.of(Commands.run(
                List.of(executable.toString(), "check", "config", configFile.toString()), Map.of(), null, TIMEOUT));
    }
}
