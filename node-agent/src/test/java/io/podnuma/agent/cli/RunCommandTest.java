package io.podnuma.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.checkpoint.CheckpointStore;
import io.podnuma.agent.checkpoint.LockHolder;
import io.podnuma.agent.config.Setting;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfigYaml;
import io.podnuma.testkit.agent.SampleConfigs;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code run} refuses what it cannot start with, before it touches the host or the API server. */
class RunCommandTest {

    /** A 1-socket, 4-core machine: too small for the unfittable policy. */
    private static final Path LAPTOP =
            Path.of("src/test/resources/sysfs/laptop-1s-4c8t").toAbsolutePath();

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** {@code agent.yaml} in the test's directory: {@link SampleConfigs#unfittable} on the laptop's sysfs. */
    private Path unfittable(Path state, Path socket) {
        return NodeAgentConfigYaml.write(
                SampleConfigs.unfittable("worker-1", LAPTOP, state, socket).build(), dir.resolve("agent.yaml"));
    }

    private int run(String... args) {
        return Main.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @Test
    void flagsComeAsPairsOrWithEquals() {
        assertThat(RunCommand.flags(List.of("--config", "/etc/a.yaml", "--metrics-port=9000")))
                .isEqualTo(Map.of("config", "/etc/a.yaml", "metrics-port", "9000"));
        assertThatThrownBy(() -> RunCommand.flags(List.of("config")))
                .hasMessageContaining("unexpected argument \"config\"");
        assertThatThrownBy(() -> RunCommand.flags(List.of("--config"))).hasMessage("flag --config has no value");
    }

    @Test
    void runWithSettingsGoesStraightToTheAgentAndHelpOrVersionThroughPicocli() {
        assertThat(RunCommand.isDirect("run")).isTrue();
        assertThat(RunCommand.isDirect("run", "--config", "/etc/podnuma/agent.yaml", "--metrics-port=9000"))
                .isTrue();
        assertThat(RunCommand.isDirect("run", "--config", "/etc/a.yaml", "--help"))
                .isFalse();
        assertThat(RunCommand.isDirect("run", "-V")).isFalse();
        assertThat(RunCommand.isDirect("topology", "--sysfs", "/sys")).isFalse();
        assertThat(RunCommand.isDirect()).isFalse();

        assertThat(run("run", "--help")).isZero();
        assertThat(out.toString()).contains("Usage: node-agent run").contains("Run the node agent");
    }

    @Test
    void helpListsEverySettingWithItsFlagVariableDefaultAndMeaning() {
        assertThat(run("run", "--help")).isZero();
        String help = out.toString();
        for (Setting s : Setting.values()) {
            String dflt = s.defaultValue() == null
                    ? "required"
                    : s.defaultValue().isEmpty() ? "default: (empty)" : "default: " + s.defaultValue();
            assertThat(help)
                    .as(s.key())
                    .contains("  --" + s.flag() + " <value>, $" + s.env() + "\n      " + dflt + "\n");
            assertThat(help.replaceAll("\\s+", " ")).as(s.key()).contains(s.description());
        }
        assertThat(help)
                .contains("  --metrics-port <value>, $PODNUMA_METRICS_PORT\n"
                        + "      default: 9464\n"
                        + "      TCP port of /metrics\n")
                .contains("  --node-name <value>, $PODNUMA_NODE_NAME\n      required\n")
                .contains("  --config <value>, $PODNUMA_CONFIG\n      default: /etc/podnuma/agent.yaml\n");
        assertThat(help.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(100));
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void helpStartsNothingEvenWithSettingsThatWouldFail() {
        Path state = dir.resolve("state");
        assertThat(run("run", "--config", dir.resolve("nope.yaml").toString(), "--state-dir", state.toString(), "-h"))
                .isZero();
        assertThat(out.toString()).startsWith("Usage: node-agent run").contains("--state-dir <value>");
        assertThat(err.toString()).as("no configuration was read").isEmpty();
        assertThat(state).doesNotExist();
    }

    @Test
    void aSettingWithoutItsDashesIsAUsageError() {
        assertThat(run("run", "config", "/etc/a.yaml")).isEqualTo(2);
        assertThat(err.toString()).contains("error: unexpected argument \"config\"");
    }

    @Test
    void aMissingConfigurationFileIsAUsageErrorNamingIt() {
        Path missing = dir.resolve("nope.yaml");
        assertThat(run("run", "--config", missing.toString())).isEqualTo(2);
        assertThat(err.toString())
                .contains("invalid configuration")
                .contains(missing + ": the configuration file does not exist");
    }

    @Test
    void everyBadSettingIsNamedAtOnce() throws Exception {
        Path file = dir.resolve("agent.yaml");
        Files.writeString(file, """
                apiVersion: podnuma.io/v1alpha1
                kind: NodeAgentConfig
                nodeName: worker-1
                policy:
                  cpuManager:
                    policy: static
                    reservedCpuCount: 0
                """);
        assertThat(run("run", "--config", file.toString(), "--metrics-port", "70000", "--colour", "blue"))
                .isEqualTo(2);
        assertThat(err.toString())
                .contains("metrics-port")
                .contains("colour")
                .contains("policy.cpuManager.reservedCpuCount");
    }

    @Test
    void aPolicyThatDoesNotFitTheMachineStopsTheStartWithTheReason() throws Exception {
        Path file = unfittable(dir.resolve("state"), dir.resolve("s.sock"));
        assertThat(run("run", "--config", file.toString())).isEqualTo(1);
        assertThat(err.toString()).contains("the agent cannot start: the policy does not fit this machine");
    }

    @Test
    void aSecondAgentOnAHeldStateDirectoryExitsNamingTheHolderBeforeItReadsOrServesAnything() throws Exception {
        Path state = Files.createDirectory(dir.resolve("state"));
        Path checkpoint = state.resolve(CheckpointStore.DEFAULT_FILE_NAME);
        byte[] bytes = "{\"kind\": \"podnuma.io/node-checkpoint\"}\n".getBytes(StandardCharsets.UTF_8);
        Files.write(checkpoint, bytes);
        Path socket = dir.resolve("s.sock");
        // The policy cannot fit the machine: once the lock is free, the start gets that far and stops there.
        Path file = unfittable(state, socket);

        try (LockHolder other = LockHolder.start(state)) {
            assertThat(run("run", "--config", file.toString())).isEqualTo(1);
            assertThat(err.toString())
                    .isEqualTo("error: the agent cannot start: the state directory " + state
                            + " is locked by another node agent, pid " + other.pid() + " in its PID namespace ("
                            + state.resolve("agent.lock") + "): two agents on one node would pin the same"
                            + " containers; stop the other agent, or give this one a stateDir of its own\n");
            assertThat(Files.readAllBytes(checkpoint))
                    .as("the checkpoint byte for byte")
                    .isEqualTo(bytes);
            try (var files = Files.list(state)) {
                assertThat(files.map(p -> p.getFileName().toString()))
                        .containsExactlyInAnyOrder("agent.lock", "node-state.json");
            }
            assertThat(socket).as("nothing served").doesNotExist();
            assertThat(other.kill9()).as("SIGKILL").isEqualTo(137);
        }

        err.getBuffer().setLength(0);
        assertThat(run("run", "--config", file.toString())).isEqualTo(1);
        assertThat(err.toString())
                .as("the dead holder's lock went with it")
                .contains("the agent cannot start: the policy does not fit this machine");
        assertThat(Files.readAllBytes(checkpoint)).isEqualTo(bytes);
    }
}
