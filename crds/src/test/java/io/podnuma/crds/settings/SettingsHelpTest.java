package io.podnuma.crds.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SettingsHelpTest {

    @Test
    void eachRowIsItsFlagVariableAndDefaultThenItsMeaningWrappedBelow() {
        String help = SettingsHelp.render(
                "Settings:",
                List.of(
                        new SettingsHelp.Row("node-name", "PODNUMA_NODE_NAME", null, "the node"),
                        new SettingsHelp.Row("policy-name", "PODNUMA_POLICY_NAME", "", "the policy; empty: none"),
                        new SettingsHelp.Row("metrics-port", "PODNUMA_METRICS_PORT", "9464", "word ".repeat(30))));

        assertThat(help)
                .isEqualTo("Settings:\n"
                        + "  --node-name <value>, $PODNUMA_NODE_NAME\n"
                        + "      required\n"
                        + "      the node\n"
                        + "  --policy-name <value>, $PODNUMA_POLICY_NAME\n"
                        + "      default: (empty)\n"
                        + "      the policy; empty: none\n"
                        + "  --metrics-port <value>, $PODNUMA_METRICS_PORT\n"
                        + "      default: 9464\n"
                        + "      " + "word ".repeat(19).strip() + "\n"
                        + "      " + "word ".repeat(11).strip() + "\n");
        assertThat(help.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(SettingsHelp.WIDTH));
    }
}
