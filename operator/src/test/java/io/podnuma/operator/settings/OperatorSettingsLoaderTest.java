package io.podnuma.operator.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.crds.agent.v1alpha1.LogLevel;
import io.podnuma.crds.settings.SettingType;
import io.podnuma.logging.LogFormat;
import io.podnuma.operator.render.AgentExtras;
import io.podnuma.operator.render.AgentPinning;
import io.podnuma.operator.render.AgentRollout;
import io.podnuma.operator.render.AgentServiceMonitor;
import io.podnuma.operator.render.AgentToleration;
import io.podnuma.operator.render.ApiServerEndpoint;
import io.podnuma.operator.render.PodNetwork;
import io.podnuma.operator.render.PullPolicy;
import io.podnuma.operator.render.TaintEffect;
import io.podnuma.operator.render.TolerationOperator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
        assertThat(s.leaseTimings()).isEqualTo(LeaseTimings.DEFAULTS);
        assertThat(s.healthPort()).isEqualTo(8080);
        assertThat(s.metricsPort()).isEqualTo(9090);
        assertThat(s.logLevel()).isEqualTo(LogLevel.INFO);
        assertThat(s.logFormat()).isEqualTo(LogFormat.TEXT);
        assertThat(s.rollout().logFormat()).isEqualTo(LogFormat.TEXT);
    }

    @Test
    void theOperatorsLogSettingsAreItsOwnAndTheAgentsApart() {
        OperatorSettings s = parse(
                MINIMAL + "logLevel: debug\nagentLogFormat: json\n",
                Map.of("log-format", "json"),
                Map.of("PODNUMA_OPERATOR_AGENT_LOG_LEVEL", "warn"));
        assertThat(s.logLevel()).isEqualTo(LogLevel.DEBUG);
        assertThat(s.logFormat()).isEqualTo(LogFormat.JSON);
        assertThat(s.rollout().logLevel()).isEqualTo(LogLevel.WARN);
        assertThat(s.rollout().logFormat()).isEqualTo(LogFormat.JSON);
    }

    @Test
    void theLeaseTimingsAreReadAsGivenDownToMilliseconds() {
        OperatorSettings s =
                parse(MINIMAL + "leaseDuration: 3s\nrenewDeadline: 2s\n", Map.of("retry-period", "500ms"), Map.of());
        assertThat(s.leaseTimings())
                .isEqualTo(new LeaseTimings(Duration.ofSeconds(3), Duration.ofSeconds(2), Duration.ofMillis(500)));
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
                Arguments.of("logLevel: verbose", "logLevel = \"verbose\": allowed trace, debug, info, warn, error"),
                Arguments.of("logFormat: logfmt", "logFormat = \"logfmt\": allowed text, json"),
                Arguments.of("agentLogFormat: yaml", "agentLogFormat = \"yaml\": allowed text, json"),
                Arguments.of("agentMemoryLimit: 256MB", "agentMemoryLimit = \"256MB\": allowed a Kubernetes quantity"),
                Arguments.of("agentCpuRequest: lots", "agentCpuRequest = \"lots\": allowed a Kubernetes quantity"),
                Arguments.of("leaseName: a_b", "leaseName = \"a_b\": allowed a DNS subdomain"),
                Arguments.of("agentImagee: x", "unknown key agentImagee: allowed namespace, agentImage"),
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

    private static final String TOLERATIONS_RULE = "a list of tolerations, e.g."
            + " [{\"key\":\"dedicated\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}] ([] for none)";
    private static final String LABELS_RULE = "a map of labels, e.g. {\"example.com/tier\":\"infra\"} ({} for none)";
    private static final String KEY_RULE = "a label key: an optional DNS subdomain prefix and '/', then a name of at"
            + " most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit"
            + " (example.com/tier)";
    private static final String SOCKET_RULE = "an absolute path of a socket file in a directory other than /, ending"
            + " in .sock, without '.', '..' or empty segments, at most 107 bytes with a file name of at most 80 (e.g."
            + " /var/lib/podnuma/pod-resources/podnuma.sock)";

    private static final String NRI_SOCKET_RULE = "an absolute path of a socket file in a directory other than /,"
            + " without '.', '..' or empty segments, at most 107 bytes with a file name of at most 80 (e.g."
            + " /var/run/nri/nri.sock)";
    private static final String NRI_INDEX_RULE =
            "exactly two digits 00 to 99 (the runtime calls plugins in ascending order), e.g. 40";

    /** A file line and every problem it makes, exactly. */
    static Stream<Arguments> exactProblems() {
        return Stream.of(
                Arguments.of(
                        "agentTolerations: [{operator: Maybe}]",
                        List.of("operator.yaml: agentTolerations[0].operator = \"Maybe\": allowed Exists or Equal")),
                Arguments.of(
                        "agentTolerations: [{key: a, operator: Exists, effect: NoScheduled}]",
                        List.of("operator.yaml: agentTolerations[0].effect = \"NoScheduled\": allowed NoSchedule,"
                                + " PreferNoSchedule, NoExecute or empty (every effect)")),
                Arguments.of(
                        "agentTolerations: [{operator: Exists, tolerationSecond: 5}]",
                        List.of("operator.yaml: agentTolerations[0].tolerationSecond = 5: unknown field: allowed key,"
                                + " operator, value, effect, tolerationSeconds")),
                Arguments.of(
                        "agentTolerations: [{key: a, operator: Exists, effect: NoSchedule, tolerationSeconds: 5}]",
                        List.of("operator.yaml: agentTolerations[0] ="
                                + " {\"key\":\"a\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\",\"tolerationSeconds\":5}:"
                                + " allowed tolerationSeconds only with effect NoExecute")),
                Arguments.of(
                        "agentTolerations: [{key: a, operator: Exists, value: b}]",
                        List.of(
                                "operator.yaml: agentTolerations[0] = {\"key\":\"a\",\"operator\":\"Exists\",\"value\":\"b\"}:"
                                        + " allowed no value with operator Exists (it tolerates every value of the key)")),
                Arguments.of(
                        "agentTolerations: [{value: b}]",
                        List.of("operator.yaml: agentTolerations[0] = {\"value\":\"b\"}: allowed operator Exists"
                                + " without a key (a toleration without a key tolerates every key)")),
                Arguments.of(
                        "agentTolerations: [{key: a b, operator: Exists}]",
                        List.of("operator.yaml: agentTolerations[0].key = \"a b\": allowed " + KEY_RULE)),
                Arguments.of(
                        "agentTolerations: [{key: a, operator: Exists, effect: NoExecute, tolerationSeconds: soon}]",
                        List.of("operator.yaml: agentTolerations[0].tolerationSeconds = \"soon\": allowed a whole"
                                + " number of seconds, 0 or more")),
                Arguments.of(
                        "agentTolerations: [{operator: 1}]",
                        List.of("operator.yaml: agentTolerations[0].operator = 1: allowed text (quote it in YAML),"
                                + " found a number")),
                Arguments.of(
                        "agentTolerations: [Exists]",
                        List.of("operator.yaml: agentTolerations[0] = \"Exists\": allowed a toleration: a map of key,"
                                + " operator, value, effect, tolerationSeconds, found text")),
                Arguments.of(
                        "agentTolerations: {operator: Exists}",
                        List.of("operator.yaml: agentTolerations = {\"operator\":\"Exists\"}: allowed "
                                + TOLERATIONS_RULE + ", found a map")),
                Arguments.of(
                        "agentTolerations:",
                        List.of("operator.yaml: agentTolerations = null: allowed " + TOLERATIONS_RULE
                                + ", found null")),
                Arguments.of(
                        "agentTolerations: [{operator: Maybe}, {key: a, operator: Exists, effect: Never}]",
                        List.of(
                                "operator.yaml: agentTolerations[0].operator = \"Maybe\": allowed Exists or Equal",
                                "operator.yaml: agentTolerations[1].effect = \"Never\": allowed NoSchedule,"
                                        + " PreferNoSchedule, NoExecute or empty (every effect)")),
                Arguments.of(
                        "agentNodeSelector: {podnuma.io/policy: x}",
                        List.of("operator.yaml: agentNodeSelector[\"podnuma.io/policy\"] = \"x\": the operator"
                                + " selects the nodes of the policy by it: allowed any key but podnuma.io/policy")),
                Arguments.of(
                        "agentPodLabels: {app.kubernetes.io/managed-by: Helm, app.kubernetes.io/name: x}",
                        List.of(
                                "operator.yaml: agentPodLabels[\"app.kubernetes.io/managed-by\"] = \"Helm\": the"
                                        + " operator sets it (it finds the agents' objects by it): allowed any key but"
                                        + " app.kubernetes.io/name, podnuma.io/policy, app.kubernetes.io/managed-by",
                                "operator.yaml: agentPodLabels[\"app.kubernetes.io/name\"] = \"x\": the operator"
                                        + " sets it (it finds the agents' objects by it): allowed any key but"
                                        + " app.kubernetes.io/name, podnuma.io/policy, app.kubernetes.io/managed-by")),
                Arguments.of(
                        "agentPodLabels: {Bad Key: x}",
                        List.of("operator.yaml: agentPodLabels[\"Bad Key\"] = \"x\": allowed " + KEY_RULE)),
                Arguments.of(
                        "agentPodLabels: {tier: a b}",
                        List.of("operator.yaml: agentPodLabels[\"tier\"] = \"a b\": allowed a label value: empty or"
                                + " at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or"
                                + " digit")),
                Arguments.of(
                        "agentPodAnnotations: {podnuma.io/config-hash: x, Bad Key: y, example.com/n: 1}",
                        List.of(
                                "operator.yaml: agentPodAnnotations[\"podnuma.io/config-hash\"] = \"x\": the"
                                        + " operator sets it on the agent pods: allowed any key but"
                                        + " podnuma.io/config-hash",
                                "operator.yaml: agentPodAnnotations[\"Bad Key\"] = \"y\": allowed an annotation"
                                        + " key: an optional DNS subdomain prefix and '/', then a name of at most 63"
                                        + " letters, digits, '-', '_' and '.', starting and ending with a letter or"
                                        + " digit (example.com/note)",
                                "operator.yaml: agentPodAnnotations[\"example.com/n\"] = 1: allowed text (quote it"
                                        + " in YAML), found a number")),
                Arguments.of(
                        "agentPodAnnotations: {example.com/blob: " + "x".repeat(256 * 1024) + "}",
                        List.of("operator.yaml: agentPodAnnotations = (262160 bytes of keys and values): allowed keys"
                                + " and values of at most 262051 bytes together in UTF-8 (256 KiB, less the"
                                + " operator's podnuma.io/config-hash)")),
                Arguments.of(
                        "agentPodAnnotations: [a]",
                        List.of("operator.yaml: agentPodAnnotations = [\"a\"]: allowed a map of annotations, e.g."
                                + " {\"example.com/note\":\"any text\"} ({} for none), found a list")),
                Arguments.of(
                        "serviceMonitorLabels: {release: 1}",
                        List.of("operator.yaml: serviceMonitorLabels[\"release\"] = 1: allowed text (quote it in"
                                + " YAML), found a number")),
                Arguments.of(
                        "agentPodLabels: [a]",
                        List.of("operator.yaml: agentPodLabels = [\"a\"]: allowed " + LABELS_RULE + ", found a list")),
                Arguments.of(
                        "namespace: [a, b]",
                        List.of("operator.yaml: namespace = [\"a\",\"b\"]: allowed a single value (text, a number or"
                                + " true/false), found a list")),
                Arguments.of(
                        "agentReconcilePeriod: 500ms",
                        List.of("operator.yaml: agentReconcilePeriod = \"500ms\": allowed a duration such as 500ms,"
                                + " 10s, 1m30s or 1h (units ms, s, m, h) from 1s to 1h")),
                Arguments.of(
                        "agentPodResourcesSocket: /var/lib/podnuma/podnuma",
                        List.of("operator.yaml: agentPodResourcesSocket = \"/var/lib/podnuma/podnuma\": allowed "
                                + SOCKET_RULE)),
                Arguments.of(
                        "agentPodResourcesSocket: /podnuma.sock",
                        List.of("operator.yaml: agentPodResourcesSocket = \"/podnuma.sock\": allowed " + SOCKET_RULE)),
                Arguments.of(
                        "agentPodResourcesSocket: /var/lib/../podnuma.sock",
                        List.of("operator.yaml: agentPodResourcesSocket = \"/var/lib/../podnuma.sock\": allowed "
                                + SOCKET_RULE)),
                Arguments.of(
                        "agentPodResourcesSocket: /run/" + "x".repeat(100) + ".sock",
                        List.of("operator.yaml: agentPodResourcesSocket = \"/run/" + "x".repeat(100) + ".sock\":"
                                + " allowed " + SOCKET_RULE)),
                Arguments.of(
                        "agentPinning: NRI",
                        List.of("operator.yaml: agentPinning = \"NRI\": allowed auto, nri or cgroup")),
                Arguments.of(
                        "agentPinning: \"\"",
                        List.of("operator.yaml: agentPinning = \"\": allowed auto, nri or cgroup")),
                Arguments.of(
                        "agentNriSocket: /nri.sock",
                        List.of("operator.yaml: agentNriSocket = \"/nri.sock\": allowed " + NRI_SOCKET_RULE)),
                Arguments.of(
                        "agentNriSocket: /",
                        List.of("operator.yaml: agentNriSocket = \"/\": allowed " + NRI_SOCKET_RULE)),
                Arguments.of(
                        "agentNriSocket: var/run/nri/nri.sock",
                        List.of("operator.yaml: agentNriSocket = \"var/run/nri/nri.sock\": allowed "
                                + NRI_SOCKET_RULE)),
                Arguments.of(
                        "agentNriSocket: /var/run/nri/../nri.sock",
                        List.of("operator.yaml: agentNriSocket = \"/var/run/nri/../nri.sock\": allowed "
                                + NRI_SOCKET_RULE)),
                Arguments.of(
                        "agentNriSocket: /var/lib/podnuma/pod-resources/nri.sock",
                        List.of("agentNriSocket /var/lib/podnuma/pod-resources/nri.sock and agentPodResourcesSocket"
                                + " /var/lib/podnuma/pod-resources/podnuma.sock are in one directory: allowed two"
                                + " different directories (the agent's own socket directory is mounted writable, the"
                                + " runtime's read-only)")),
                Arguments.of(
                        "agentNriPluginIndex: \"4\"",
                        List.of("operator.yaml: agentNriPluginIndex = \"4\": allowed " + NRI_INDEX_RULE)),
                Arguments.of(
                        "agentNriPluginIndex: 05",
                        List.of("operator.yaml: agentNriPluginIndex = \"5\": allowed " + NRI_INDEX_RULE)),
                Arguments.of(
                        "agentNriPluginIndex: \"100\"",
                        List.of("operator.yaml: agentNriPluginIndex = \"100\": allowed " + NRI_INDEX_RULE)),
                Arguments.of(
                        "agentExtraEnv: [{name: PODNUMA_LOG_LEVEL, value: debug}, {name: A, valueFrom: {}}]",
                        List.of(
                                "operator.yaml: agentExtraEnv[0].name = \"PODNUMA_LOG_LEVEL\": allowed "
                                        + AgentExtras.ENV_NAME_RULE,
                                "operator.yaml: agentExtraEnv[1] = {\"name\":\"A\",\"valueFrom\":{}}: allowed"
                                        + " {\"name\": text, \"value\": text} (no valueFrom)")),
                Arguments.of(
                        "agentExtraEnv: [{name: A, value: x}, {name: A, value: y}]",
                        List.of("operator.yaml: agentExtraEnv[1].name = \"A\": set twice")),
                Arguments.of(
                        "agentExtraArgs: [--a, 1]",
                        List.of("operator.yaml: agentExtraArgs[1] = 1: allowed text (quote it in YAML), found a"
                                + " number")),
                Arguments.of(
                        "agentAffinity: {nodeAfinity: {}}",
                        List.of("operator.yaml: agentAffinity[\"nodeAfinity\"] = {}: allowed a Kubernetes Affinity, a"
                                + " map of nodeAffinity, podAffinity and podAntiAffinity ({} for none)")),
                Arguments.of(
                        "agentServiceMonitor: maybe",
                        List.of("operator.yaml: agentServiceMonitor = \"maybe\": allowed true or false")));
    }

    @ParameterizedTest
    @MethodSource("exactProblems")
    void aBadStructureOrNewSettingIsReportedAtItsPathWithWhatIsAllowed(String line, List<String> problems) {
        assertThatThrownBy(() -> parse(MINIMAL + line + "\n", Map.of(), Map.of()))
                .isInstanceOfSatisfying(
                        OperatorSettingsException.class,
                        e -> assertThat(e.problems()).containsExactlyElementsOf(problems));
    }

    @Test
    void theNewSettingsDefaultToTodaysAgent() {
        OperatorSettings s = parse(MINIMAL, Map.of(), Map.of());
        assertThat(s.rollout().reconcilePeriod()).isEmpty();
        assertThat(s.rollout().hostPaths().podResourcesSocket())
                .isEqualTo("/var/lib/podnuma/pod-resources/podnuma.sock");
        assertThat(s.rollout().tolerations()).containsExactly(AgentToleration.EVERY_TAINT);
        assertThat(s.rollout().nodeSelector()).isEmpty();
        assertThat(s.rollout().podLabels()).isEmpty();
        assertThat(s.rollout().podAnnotations()).isEmpty();
        assertThat(s.rollout().extras()).isEqualTo(AgentExtras.NONE);
        assertThat(s.rollout().serviceMonitor()).contains(new AgentServiceMonitor(Map.of()));
        assertThat(s.rollout()).isEqualTo(AgentRollout.defaults("registry.example/podnuma/node-agent:1"));
    }

    @Test
    void metricsArePlainByDefaultAndTheSecureSettingsReachTheOperatorAndTheRollout() {
        OperatorSettings defaults = parse(MINIMAL, Map.of(), Map.of());
        assertThat(defaults.metricsSecurity()).isEqualTo(io.podnuma.securemetrics.MetricsSecurity.HTTP);
        assertThat(defaults.metricsTls().certFile()).isEmpty();
        assertThat(defaults.metricsTls().cacheTtl()).isEqualTo(Duration.ofMinutes(1));
        assertThat(defaults.rollout().secureMetrics()).isEmpty();

        OperatorSettings set = parse(
                MINIMAL + "metricsSecurity: https\nmetricsCertFile: /tls/tls.crt\nmetricsKeyFile: /tls/tls.key\n"
                        + "agentMetricsSecurity: https\nagentMetricsCertSecret: podnuma-metrics-tls\n",
                Map.of("metrics-auth-cache-ttl", "30s", "agent-metrics-auth-cache-ttl", "0s"),
                Map.of("PODNUMA_OPERATOR_AGENT_METRICS_SCRAPE_TOKEN_SECRET", "scraper"));
        assertThat(set.metricsSecurity()).isEqualTo(io.podnuma.securemetrics.MetricsSecurity.HTTPS);
        assertThat(set.metricsTls().certFile()).contains(java.nio.file.Path.of("/tls/tls.crt"));
        assertThat(set.metricsTls().keyFile()).contains(java.nio.file.Path.of("/tls/tls.key"));
        assertThat(set.metricsTls().cacheTtl()).isEqualTo(Duration.ofSeconds(30));
        assertThat(set.rollout().secureMetrics())
                .contains(new io.podnuma.operator.render.AgentSecureMetrics(
                        Optional.of("podnuma-metrics-tls"), Optional.of(Duration.ZERO), Optional.of("scraper")));
        assertThat(parse(MINIMAL + "agentMetricsSecurity: https\n", Map.of(), Map.of())
                        .rollout()
                        .secureMetrics())
                .contains(io.podnuma.operator.render.AgentSecureMetrics.selfSigned());
    }

    @Test
    void thePinningSettingsDefaultToAutoAndReachTheRollout() {
        OperatorSettings defaults = parse(MINIMAL, Map.of(), Map.of());
        assertThat(defaults.rollout().pinning()).isEqualTo(AgentPinning.AUTO);
        assertThat(defaults.rollout().hostPaths().nriSocket()).isEqualTo("/var/run/nri/nri.sock");
        assertThat(defaults.rollout().nriPluginIndex()).isEqualTo("40");

        OperatorSettings set = parse(
                MINIMAL + "agentPinning: nri\nagentNriSocket: /file/nri.sock\nagentNriPluginIndex: \"07\"\n",
                Map.of("agent-nri-plugin-index", "90"),
                Map.of("PODNUMA_OPERATOR_AGENT_NRI_SOCKET", "/run/containerd/nri/nri.sock"));
        assertThat(set.rollout().pinning()).as("file").isEqualTo(AgentPinning.NRI);
        assertThat(set.rollout().hostPaths().nriSocket()).as("env > file").isEqualTo("/run/containerd/nri/nri.sock");
        assertThat(set.rollout().nriPluginIndex()).as("flag > file").isEqualTo("90");
        assertThat(parse(MINIMAL, Map.of(), Map.of("PODNUMA_OPERATOR_AGENT_PINNING", "cgroup"))
                        .rollout()
                        .pinning())
                .isEqualTo(AgentPinning.CGROUP);
    }

    @Test
    void theAgentsExtraEnvArgsAndAffinityReachTheRollout() {
        OperatorSettings s = parse(MINIMAL + """
                        agentExtraEnv:
                          - {name: JAVA_TOOL_OPTIONS, value: "-Xlog:gc"}
                          - {name: TZ, value: UTC}
                        agentExtraArgs: ["--example", "1"]
                        agentAffinity:
                          nodeAffinity:
                            requiredDuringSchedulingIgnoredDuringExecution:
                              nodeSelectorTerms:
                                - matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [amd64]}]
                        """, Map.of(), Map.of());
        AgentExtras extras = s.rollout().extras();
        assertThat(extras.env())
                .containsExactly(
                        new AgentExtras.Env("JAVA_TOOL_OPTIONS", "-Xlog:gc"), new AgentExtras.Env("TZ", "UTC"));
        assertThat(extras.args()).containsExactly("--example", "1");
        assertThat(extras.affinity())
                .hasValueSatisfying(a -> assertThat(a.getNodeAffinity()
                                .getRequiredDuringSchedulingIgnoredDuringExecution()
                                .getNodeSelectorTerms()
                                .getFirst()
                                .getMatchExpressions()
                                .getFirst()
                                .getValues())
                        .containsExactly("amd64"));
        assertThat(parse(MINIMAL + "agentExtraEnv: []\nagentExtraArgs: []\nagentAffinity: {}\n", Map.of(), Map.of())
                        .rollout()
                        .extras())
                .as("the chart's empty values are none")
                .isEqualTo(AgentExtras.NONE);
    }

    @Test
    void listsAndMapsAreYamlInTheFile() {
        OperatorSettings s = parse(MINIMAL + """
                        agentReconcilePeriod: 30s
                        agentPodResourcesSocket: /run/podnuma-agent/podnuma.sock
                        agentTolerations:
                          - {key: dedicated, operator: Equal, value: trading, effect: NoExecute, tolerationSeconds: 60}
                          - {key: example.com/gpu, effect: "", operator: Exists}
                          - {key: plain, value: "yes"}
                        agentNodeSelector: {topology.kubernetes.io/zone: a}
                        agentPodLabels:
                          example.com/team: infra
                          app.kubernetes.io/instance: podnuma
                        agentPodAnnotations:
                          nri.example.com/tolerate-missing-plugins: "true"
                          Example.com/Note: "any text: even {this}"
                        serviceMonitorLabels: {release: kps}
                        """, Map.of(), Map.of());
        assertThat(s.rollout().reconcilePeriod()).contains(Duration.ofSeconds(30));
        assertThat(s.rollout().hostPaths().podResourcesSocket()).isEqualTo("/run/podnuma-agent/podnuma.sock");
        assertThat(s.rollout().tolerations())
                .containsExactly(
                        new AgentToleration(
                                Optional.of("dedicated"),
                                TolerationOperator.EQUAL,
                                Optional.of("trading"),
                                Optional.of(TaintEffect.NO_EXECUTE),
                                Optional.of(60L)),
                        new AgentToleration(
                                Optional.of("example.com/gpu"),
                                TolerationOperator.EXISTS,
                                Optional.empty(),
                                Optional.empty(),
                                Optional.empty()),
                        new AgentToleration(
                                Optional.of("plain"),
                                TolerationOperator.EQUAL,
                                Optional.of("yes"),
                                Optional.empty(),
                                Optional.empty()));
        assertThat(s.rollout().nodeSelector()).isEqualTo(Map.of("topology.kubernetes.io/zone", "a"));
        assertThat(s.rollout().podLabels())
                .isEqualTo(Map.of("example.com/team", "infra", "app.kubernetes.io/instance", "podnuma"));
        assertThat(s.rollout().podAnnotations())
                .as("any text as a value; a capital in the key's prefix, which the API server allows in annotations")
                .isEqualTo(Map.of(
                        "nri.example.com/tolerate-missing-plugins", "true",
                        "Example.com/Note", "any text: even {this}"));
        assertThat(s.rollout().serviceMonitor()).contains(new AgentServiceMonitor(Map.of("release", "kps")));
    }

    @Test
    void listsAndMapsAreJsonAsFlagsAndVariablesAndAFlagStillWins() {
        OperatorSettings s = parse(
                MINIMAL + "agentTolerations: [{key: from-file, operator: Exists}]\nagentPodLabels: {from: file}\n",
                Map.of(
                        "agent-tolerations",
                        "[]",
                        "agent-service-monitor",
                        "false",
                        "agent-pod-annotations",
                        "{\"nri.example.com/tolerate-missing-plugins\":\"true\"}"),
                Map.of(
                        "PODNUMA_OPERATOR_AGENT_TOLERATIONS", "[{\"key\":\"from-env\",\"operator\":\"Exists\"}]",
                        "PODNUMA_OPERATOR_AGENT_POD_LABELS", "{\"from\":\"env\"}",
                        "PODNUMA_OPERATOR_SERVICE_MONITOR_LABELS", "{\"release\":\"kps\"}"));
        assertThat(s.rollout().tolerations()).as("the flag's empty list").isEmpty();
        assertThat(s.rollout().podLabels()).isEqualTo(Map.of("from", "env"));
        assertThat(s.rollout().podAnnotations()).isEqualTo(Map.of("nri.example.com/tolerate-missing-plugins", "true"));
        assertThat(s.rollout().serviceMonitor())
                .as("false: no ServiceMonitor, whatever its labels")
                .isEmpty();
    }

    @Test
    void badJsonInAFlagOrAVariableIsNamedWithItsSource() {
        assertThatThrownBy(() -> parse(
                        MINIMAL,
                        Map.of("agent-tolerations", "[{\"operator\":\"Exists\""),
                        Map.of(
                                "PODNUMA_OPERATOR_AGENT_NODE_SELECTOR", "{\"podnuma.io/policy\":\"x\"}",
                                "PODNUMA_OPERATOR_AGENT_POD_LABELS", "{} {}")))
                .isInstanceOfSatisfying(
                        OperatorSettingsException.class,
                        e -> assertThat(e.problems())
                                .satisfiesExactly(
                                        p -> assertThat(p)
                                                .startsWith(
                                                        "flag --agent-tolerations = \"[{\"operator\":\"Exists\"\": allowed"
                                                                + " JSON, " + TOLERATIONS_RULE
                                                                + " (Unexpected end-of-input"),
                                        p -> assertThat(p)
                                                .isEqualTo(
                                                        "environment PODNUMA_OPERATOR_AGENT_NODE_SELECTOR[\"podnuma.io/policy\"]"
                                                                + " = \"x\": the operator selects the nodes of the policy by it:"
                                                                + " allowed any key but podnuma.io/policy"),
                                        p -> assertThat(p)
                                                .startsWith("environment PODNUMA_OPERATOR_AGENT_POD_LABELS = \"{} {}\":"
                                                        + " allowed JSON, " + LABELS_RULE + " (")));
    }

    @Test
    void theStructuredSettingsSayTheyAreJsonOnTheCommandLine() {
        assertThat(Arrays.stream(OperatorSetting.values())
                        .filter(s -> s.type() instanceof SettingType.Structure)
                        .map(OperatorSetting::key))
                .containsExactly(
                        "agentTolerations",
                        "agentNodeSelector",
                        "agentPodLabels",
                        "agentPodAnnotations",
                        "agentExtraEnv",
                        "agentExtraArgs",
                        "agentAffinity",
                        "serviceMonitorLabels");
        assertThat(OperatorSetting.AGENT_TOLERATIONS.flag()).isEqualTo("agent-tolerations");
        assertThat(OperatorSetting.SERVICE_MONITOR_LABELS.env()).isEqualTo("PODNUMA_OPERATOR_SERVICE_MONITOR_LABELS");
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
