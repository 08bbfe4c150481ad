package io.podnuma.operator.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.operator.render.ApiServerEndpoint;
import io.podnuma.operator.render.PodNetwork;
import io.podnuma.operator.render.PullPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class OperatorSettingsLoaderTest {

    private static final String MINIMAL = "agentImage: registry.example/podnuma/node-agent:1\n";

    private static OperatorSettings parse(String yaml, Map<String, String> flags, Map<String, String> env) {
        return OperatorSettingsLoader.parse(yaml, "operator.yaml", flags, env);
    }

    @Test
    void onlyTheImageIsRequiredAndTheRestHasProductionDefaults() {
        OperatorSettings s = parse(MINIMAL, Map.of(), Map.of());
        assertThat(s.rollout().namespace()).isEqualTo("podnuma-system");
        assertThat(s.rollout().image()).isEqualTo("registry.example/podnuma/node-agent:1");
        assertThat(s.rollout().pullPolicy()).isEqualTo(PullPolicy.IF_NOT_PRESENT);
        assertThat(s.rollout().maxUnavailable()).isEqualTo("10%");
        assertThat(s.rollout().priorityClassName()).contains("system-node-critical");
        assertThat(s.rollout().network()).isEqualTo(PodNetwork.HOST);
        assertThat(s.rollout().apiServer()).isEmpty();
        assertThat(s.rollout().hostPaths().kubeletRootDir()).contains("/var/lib/kubelet");
        assertThat(s.restoreTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(s.errorWindow()).isEqualTo(Duration.ofMinutes(10));
        assertThat(s.leaseName()).contains("podnuma-operator");
        assertThat(s.leaseNamespace()).isEqualTo("podnuma-system");
        assertThat(s.healthPort()).isEqualTo(8080);
        assertThat(s.metricsPort()).isEqualTo(9090);
    }

    @Test
    void theAgentsResourcesHaveDefaultsAndAnEmptySettingLeavesItsResourceOut() {
        OperatorSettings defaults = parse(MINIMAL, Map.of(), Map.of());
        assertThat(defaults.rollout().requests())
                .isEqualTo(Map.of("cpu", new Quantity("50m"), "memory", new Quantity("160Mi")));
        assertThat(defaults.rollout().limits()).isEqualTo(Map.of("memory", new Quantity("256Mi")));

        OperatorSettings small =
                parse(MINIMAL + "agentCpuRequest: \"\"\n", Map.of("agent-memory-limit", "512Mi"), Map.of());
        assertThat(small.rollout().requests()).isEqualTo(Map.of("memory", new Quantity("160Mi")));
        assertThat(small.rollout().limits()).isEqualTo(Map.of("memory", new Quantity("512Mi")));
    }

    @Test
    void aFlagBeatsTheEnvironmentWhichBeatsTheFile() {
        String yaml = MINIMAL + "maxUnavailable: \"5\"\nrestoreTimeout: 1m\nnamespace: from-file\n";
        OperatorSettings s = parse(
                yaml,
                Map.of("max-unavailable", "20%"),
                Map.of("PODNUMA_OPERATOR_MAX_UNAVAILABLE", "7", "PODNUMA_OPERATOR_RESTORE_TIMEOUT", "90s"));
        assertThat(s.rollout().maxUnavailable()).isEqualTo("20%");
        assertThat(s.restoreTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(s.rollout().namespace()).isEqualTo("from-file");
        assertThat(s.leaseNamespace()).isEqualTo("from-file");
    }

    @Test
    void testClustersSetTheApiServerAndTurnOffWhatTheyLack() {
        OperatorSettings s = parse(
                MINIMAL
                        + "apiServer: 127.0.0.1:6443\nkubeletRootDir: \"\"\nkubeletConfigFile: \"\"\nagentPriorityClass: \"\"\n"
                        + "leaderElection: false\nagentPullPolicy: Never\nagentNetwork: pod\n",
                Map.of(),
                Map.of());
        assertThat(s.rollout().apiServer()).contains(new ApiServerEndpoint("127.0.0.1", 6443));
        assertThat(s.rollout().hostPaths().kubeletRootDir()).isEmpty();
        assertThat(s.rollout().hostPaths().kubeletConfigFile()).isEmpty();
        assertThat(s.rollout().priorityClassName()).isEmpty();
        assertThat(s.leaseName()).isEmpty();
        assertThat(s.rollout().pullPolicy()).isEqualTo(PullPolicy.NEVER);
        assertThat(s.rollout().network()).isEqualTo(PodNetwork.POD);
    }

    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of("maxUnavailable: 0%", "operator.yaml: maxUnavailable = \"0%\": allowed a count"),
                Arguments.of("maxUnavailable: \"0\"", "maxUnavailable = \"0\": allowed a count of at least 1"),
                Arguments.of("namespace: Podnuma", "namespace = \"Podnuma\": allowed a DNS label"),
                Arguments.of("agentPullPolicy: always", "agentPullPolicy = \"always\": allowed Always, IfNotPresent"),
                Arguments.of("agentMetricsPort: 70000", "agentMetricsPort = \"70000\": allowed a TCP port 1..65535"),
                Arguments.of("agentNetwork: bridge", "agentNetwork = \"bridge\": allowed host or pod"),
                Arguments.of("apiServer: localhost", "apiServer = \"localhost\": allowed host:port"),
                Arguments.of("hostSys: sys", "hostSys = \"sys\": allowed an absolute path"),
                Arguments.of("restoreTimeout: 5 minutes", "restoreTimeout = \"5 minutes\": allowed a duration"),
                Arguments.of("restoreTimeout: 0s", "from 1s to 24h"),
                Arguments.of("leaderElection: yes-please", "leaderElection = \"yes-please\": allowed true or false"),
                Arguments.of("agentLogLevel: loud", "allowed trace, debug, info, warn, error"),
                Arguments.of("agentMemoryLimit: 256MB", "agentMemoryLimit = \"256MB\": allowed a Kubernetes quantity"),
                Arguments.of("agentCpuRequest: lots", "agentCpuRequest = \"lots\": allowed a Kubernetes quantity"),
                Arguments.of("leaseName: a_b", "leaseName = \"a_b\": allowed a DNS subdomain"),
                Arguments.of("agentImagee: x", "unknown key agentImagee: allowed namespace, agentImage"),
                Arguments.of("namespace: [a, b]", "namespace: allowed a single value, found a ARRAY"),
                Arguments.of("healthPort: 9090", "metricsPort and healthPort are both 9090"),
                Arguments.of("agentHealthPort: 9464", "agentMetricsPort and agentHealthPort are both 9464"));
    }

    @ParameterizedTest
    @MethodSource("badValues")
    void aBadValueIsNamedWithItsKeyItsValueAndWhatIsAllowed(String line, String message) {
        assertThatThrownBy(() -> parse(MINIMAL + line + "\n", Map.of(), Map.of()))
                .isInstanceOf(OperatorSettingsException.class)
                .hasMessageContaining(message);
    }

    @Test
    void everyProblemIsReportedAtOnceNamingItsSource() {
        assertThatThrownBy(() -> parse(
                        "namespace: X\n",
                        Map.of("metrics-port", "0", "no-such-flag", "1"),
                        Map.of("PODNUMA_OPERATOR_RESTORE_TIMEOUT", "never")))
                .isInstanceOfSatisfying(
                        OperatorSettingsException.class,
                        e -> assertThat(e.problems())
                                .anySatisfy(
                                        p -> assertThat(p).startsWith("unknown flag --no-such-flag: allowed --config,"))
                                .anySatisfy(p -> assertThat(p).startsWith("operator.yaml: namespace = \"X\""))
                                .anySatisfy(p -> assertThat(p).startsWith("flag --metrics-port = \"0\""))
                                .anySatisfy(
                                        p -> assertThat(p).startsWith("environment PODNUMA_OPERATOR_RESTORE_TIMEOUT ="))
                                .anySatisfy(p -> assertThat(p)
                                        .startsWith("agentImage is required")
                                        .contains("--agent-image")
                                        .contains("PODNUMA_OPERATOR_AGENT_IMAGE"))
                                .hasSize(5));
    }

    @Test
    void theFileIsReadFromTheFlagOrTheEnvironmentAndAMissingOneIsNamed(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("operator.yaml");
        Files.writeString(file, MINIMAL);
        assertThat(OperatorSettingsLoader.load(Map.of("config", file.toString()), Map.of())
                        .rollout()
                        .image())
                .isEqualTo("registry.example/podnuma/node-agent:1");
        assertThat(OperatorSettingsLoader.load(Map.of(), Map.of("PODNUMA_OPERATOR_CONFIG", file.toString()))
                        .rollout()
                        .image())
                .isEqualTo("registry.example/podnuma/node-agent:1");
        assertThatThrownBy(() -> OperatorSettingsLoader.load(
                        Map.of("config", dir.resolve("missing.yaml").toString()), Map.of()))
                .hasMessageContaining("missing.yaml: the settings file does not exist");
        assertThat(OperatorSettingsLoader.load(Map.of("agent-image", "img:1"), Map.of())
                        .rollout()
                        .image())
                .as("no file: flags and defaults only")
                .isEqualTo("img:1");
    }
}
