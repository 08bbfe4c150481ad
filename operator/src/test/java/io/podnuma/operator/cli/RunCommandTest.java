package io.podnuma.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.operator.settings.OperatorSetting;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** {@code operator run --help}: every setting, and nothing started. */
class RunCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Main.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @Test
    void helpListsEverySettingWithItsFlagVariableDefaultAndMeaning() {
        assertThat(run("run", "--help")).isZero();
        String help = out.toString();
        String folded = help.replaceAll("\\s+", " ");
        for (OperatorSetting s : OperatorSetting.values()) {
            String dflt = s.defaultValue() == null
                    ? "required"
                    : s.defaultValue().isEmpty() ? "default: (empty)" : "default: " + s.defaultValue();
            assertThat(help)
                    .as(s.key())
                    .contains("  --" + s.flag() + " <value>, $" + s.env() + "\n      " + dflt + "\n");
            assertThat(folded).as(s.key()).contains(s.description());
        }
        assertThat(help)
                .contains("  --agent-image <value>, $PODNUMA_OPERATOR_AGENT_IMAGE\n"
                        + "      required\n"
                        + "      the node agent's image reference\n")
                .contains("  --agent-tolerations <value>, $PODNUMA_OPERATOR_AGENT_TOLERATIONS\n"
                        + "      default: [{\"operator\":\"Exists\"}]\n"
                        + "      the agent pods' tolerations, a list (default: every taint); [] for none (JSON as a"
                        + " flag or\n      variable, YAML in the file)\n")
                .contains("  --config <value>, $PODNUMA_OPERATOR_CONFIG\n      default: (empty)\n");
        assertThat(help.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(100));
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void helpStartsNothingEvenWithSettingsThatWouldFail() {
        // Without --help this is a usage error (no agentImage, a bad port); with it, only the help.
        assertThat(run("run", "--metrics-port", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("error: ").contains("agentImage is required");
        err.getBuffer().setLength(0);

        assertThat(run("run", "--metrics-port", "0", "--help")).isZero();
        assertThat(out.toString()).startsWith("Usage: operator run").contains("--agent-image <value>");
        assertThat(err.toString()).isEmpty();
    }
}
