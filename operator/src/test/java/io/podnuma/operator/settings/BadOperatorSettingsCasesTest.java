package io.podnuma.operator.settings;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.testkit.badinput.BadInput;
import io.podnuma.testkit.badinput.BadInputDoc;
import io.podnuma.testkit.badinput.InputKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue's operator settings: its file, flags and environment, read by {@link OperatorSettingsLoader#load} as
 * {@code operator run} reads them. Every mistake of one start is in one answer.
 */
class BadOperatorSettingsCasesTest {

    private static final InputKind KIND = InputKind.OPERATOR_SETTINGS;
    private static final String KEPT = "the file is unchanged; the operator does not start (it keeps no state: the"
            + " agents already rolled out run on)";
    private static final String OK = "agentImage: registry.example/podnuma/node-agent:1\n";

    record Start(String yaml, Map<String, String> flags, Map<String, String> env) {}

    private static final Map<String, Start> STARTS = new HashMap<>();

    @TempDir
    Path dir;

    static List<BadInput> cases() {
        return List.of(
                file(
                        "op-not-yaml",
                        "not YAML",
                        "agentImage: [x\n",
                        "operator.yaml: not valid YAML: while parsing a flow sequence: expected ',' or ']', but got <stream end> (line 1, column 15)",
                        "agentImage is required (the node agent's image reference): set it in the file, with --agent-image or with PODNUMA_OPERATOR_AGENT_IMAGE"),
                file(
                        "op-duplicate-key",
                        "a key given twice",
                        OK + "agentImage: other:2\n",
                        "operator.yaml: not valid YAML: Duplicate field 'agentImage' (line 2, column 11)",
                        "agentImage is required (the node agent's image reference): set it in the file, with --agent-image or with PODNUMA_OPERATOR_AGENT_IMAGE"),
                file(
                        "op-list",
                        "a list instead of a mapping",
                        "- agentImage\n",
                        "operator.yaml: allowed a map of settings (key: value), found a list",
                        "agentImage is required (the node agent's image reference): set it in the file, with --agent-image or with PODNUMA_OPERATOR_AGENT_IMAGE"),
                file(
                        "op-missing-image",
                        "no agent image",
                        "namespace: podnuma-system\n",
                        "agentImage is required (the node agent's image reference): set it in the file, with --agent-image or with PODNUMA_OPERATOR_AGENT_IMAGE"),
                file(
                        "op-unknown-key",
                        "a key the operator does not have",
                        OK + "agentImagee: x\n",
                        "operator.yaml: unknown key agentImagee: allowed namespace, agentImage, agentPullPolicy, agentServiceAccount, agentPriorityClass, maxUnavailable, agentMetricsPort, agentHealthPort, agentNetwork, agentLogLevel, agentLogFormat, agentCpuRequest, agentMemoryRequest, agentMemoryLimit, agentReconcilePeriod, agentPodResourcesSocket, agentPinning, agentNriSocket, agentNriPluginIndex, agentCpusetPartitions, agentTolerations, agentNodeSelector, agentPodLabels, agentPodAnnotations, agentExtraEnv, agentExtraArgs, agentAffinity, agentServiceMonitor, serviceMonitorLabels, apiServer, hostSys, hostCgroup, hostStateDir, kubeletRootDir, kubeletConfigFile, restoreTimeout, errorWindow, leaderElection, leaseName, leaseNamespace, leaseDuration, renewDeadline, retryPeriod, logLevel, logFormat, healthPort, metricsPort, metricsSecurity, metricsCertFile, metricsKeyFile, metricsAuthCacheTtl, agentMetricsSecurity, agentMetricsCertSecret, agentMetricsScrapeTokenSecret, agentMetricsAuthCacheTtl"),
                file(
                        "op-namespace",
                        "a namespace that is no DNS label",
                        OK + "namespace: Podnuma\n",
                        "operator.yaml: namespace = \"Podnuma\": allowed a DNS label: at most 63 lowercase letters, digits and '-', starting and ending with a letter or digit"),
                file(
                        "op-max-unavailable",
                        "maxUnavailable 0",
                        OK + "maxUnavailable: \"0\"\n",
                        "operator.yaml: maxUnavailable = \"0\": allowed a count of at least 1 (3) or a percentage 1%..100% (10%)"),
                file(
                        "op-pull-policy",
                        "a pull policy in the wrong case",
                        OK + "agentPullPolicy: always\n",
                        "operator.yaml: agentPullPolicy = \"always\": allowed Always, IfNotPresent or Never"),
                file(
                        "op-port",
                        "a port above 65535",
                        OK + "agentMetricsPort: 70000\n",
                        "operator.yaml: agentMetricsPort = \"70000\": allowed a TCP port 1..65535"),
                file(
                        "op-same-ports",
                        "the agents' metrics and health on one port",
                        OK + "agentHealthPort: 9464\n",
                        "agentMetricsPort and agentHealthPort are both 9464: allowed two different ports"),
                file(
                        "op-log-format",
                        "a log format the operator does not write",
                        OK + "logFormat: logfmt\n",
                        "operator.yaml: logFormat = \"logfmt\": allowed text, json"),
                start(
                        "op-env-agent-log-format",
                        "the agents' log format in upper case, in the environment",
                        new Start(OK, Map.of(), Map.of("PODNUMA_OPERATOR_AGENT_LOG_FORMAT", "JSON")),
                        "environment PODNUMA_OPERATOR_AGENT_LOG_FORMAT = \"JSON\": allowed text, json"),
                file(
                        "op-log-level",
                        "an unknown log level of the operator",
                        OK + "logLevel: verbose\n",
                        "operator.yaml: logLevel = \"verbose\": allowed trace, debug, info, warn, error"),
                file(
                        "op-network",
                        "an unknown pod network",
                        OK + "agentNetwork: bridge\n",
                        "operator.yaml: agentNetwork = \"bridge\": allowed host or pod"),
                file(
                        "op-api-server",
                        "an API server without a port",
                        OK + "apiServer: localhost\n",
                        "operator.yaml: apiServer = \"localhost\": allowed host:port with a port 1..65535, e.g. 10.0.0.1:6443, or empty"),
                file(
                        "op-host-path",
                        "a relative host path",
                        OK + "hostSys: sys\n",
                        "operator.yaml: hostSys = \"sys\": allowed an absolute path (starting with /)"),
                file(
                        "op-duration",
                        "a duration in words",
                        OK + "restoreTimeout: 5 minutes\n",
                        "operator.yaml: restoreTimeout = \"5 minutes\": allowed a duration such as 500ms, 10s, 1m30s or 1h (units ms, s, m, h) from 1s to 24h"),
                file(
                        "op-boolean",
                        "a boolean that is neither",
                        OK + "leaderElection: yes-please\n",
                        "operator.yaml: leaderElection = \"yes-please\": allowed true or false"),
                file(
                        "op-lease-duration",
                        "a lease duration without a unit",
                        OK + "leaseDuration: 15\n",
                        "operator.yaml: leaseDuration = \"15\": allowed a duration such as 500ms, 10s, 1m30s or 1h (units ms, s, m, h) from 100ms to 10m"),
                file(
                        "op-renew-deadline",
                        "a renew deadline as long as the lease",
                        OK + "leaseDuration: 10s\nrenewDeadline: 10s\n",
                        "renewDeadline 10s is not less than leaseDuration 10s: allowed a renewDeadline shorter than leaseDuration (the leader gives up before a standby may take the Lease over)"),
                file(
                        "op-retry-period",
                        "a retry period longer than the renew deadline",
                        OK + "retryPeriod: 15s\n",
                        "retryPeriod 15s is not less than renewDeadline 10s: allowed a retryPeriod shorter than renewDeadline (the leader gets another try to renew before it gives up)"),
                file(
                        "op-lease-timings",
                        "lease timings in the wrong order, both mistakes",
                        OK + "leaseDuration: 2s\nrenewDeadline: 5s\nretryPeriod: 5s\n",
                        "renewDeadline 5s is not less than leaseDuration 2s: allowed a renewDeadline shorter than leaseDuration (the leader gives up before a standby may take the Lease over)",
                        "retryPeriod 5s is not less than renewDeadline 5s: allowed a retryPeriod shorter than renewDeadline (the leader gets another try to renew before it gives up)"),
                start(
                        "op-retry-period-flag",
                        "a retry period below 100ms as a flag",
                        new Start(OK, Map.of("retry-period", "50ms"), Map.of()),
                        "flag --retry-period = \"50ms\": allowed a duration such as 500ms, 10s, 1m30s or 1h (units ms, s, m, h) from 100ms to 10m"),
                file(
                        "op-quantity",
                        "a memory limit in MB",
                        OK + "agentMemoryLimit: 256MB\n",
                        "operator.yaml: agentMemoryLimit = \"256MB\": allowed a Kubernetes quantity: a number with an optional suffix (50m, 1, 160Mi, 1Gi) or empty"),
                file(
                        "op-tolerations",
                        "tolerations that are no list",
                        OK + "agentTolerations: everything\n",
                        "operator.yaml: agentTolerations = \"everything\": allowed a list of tolerations, e.g. [{\"key\":\"dedicated\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}] ([] for none), found text"),
                file(
                        "op-metrics-security",
                        "metricsSecurity neither http nor https",
                        OK + "metricsSecurity: tls\n",
                        "operator.yaml: metricsSecurity = \"tls\": allowed http or https"),
                file(
                        "op-metrics-key-without-cert",
                        "a metrics key without its certificate",
                        OK + "metricsSecurity: https\nmetricsKeyFile: /etc/tls/tls.key\n",
                        "metricsKeyFile is set without metricsCertFile: allowed both (a certificate and its key) or neither (a self-signed certificate made at start)"),
                file(
                        "op-metrics-cert-plain",
                        "certificate files while the operator's /metrics stays plain http",
                        OK + "metricsCertFile: /etc/tls/tls.crt\nmetricsKeyFile: /etc/tls/tls.key\n",
                        "metricsCertFile and metricsKeyFile are set but metricsSecurity is http: allowed metricsSecurity https with them, or no certificate files"),
                file(
                        "op-agent-cert-secret-plain",
                        "a certificate Secret for agents whose /metrics stays plain http",
                        OK + "agentMetricsCertSecret: podnuma-metrics-tls\n",
                        "agentMetricsCertSecret is set but agentMetricsSecurity is http: allowed agentMetricsSecurity https with it, or no Secret"),
                file(
                        "op-agent-cert-secret-name",
                        "a certificate Secret name that is no DNS subdomain",
                        OK + "agentMetricsSecurity: https\nagentMetricsCertSecret: Metrics_TLS\n",
                        "operator.yaml: agentMetricsCertSecret = \"Metrics_TLS\": allowed a DNS subdomain: at most 253 lowercase letters, digits, '-' and '.'"),
                file(
                        "op-metrics-cache-ttl",
                        "a scrape decision cache TTL above 10 minutes",
                        OK + "metricsSecurity: https\nmetricsAuthCacheTtl: 1h\n",
                        "operator.yaml: metricsAuthCacheTtl = \"1h\": allowed a duration such as 500ms, 10s, 1m30s or 1h (units ms, s, m, h) from 0s to 10m"),
                file(
                        "op-many-mistakes",
                        "four mistakes in one file",
                        "namespace: Podnuma\nagentMetricsPort: 0\nfoo: bar\n",
                        "operator.yaml: unknown key foo: allowed namespace, agentImage, agentPullPolicy, agentServiceAccount, agentPriorityClass, maxUnavailable, agentMetricsPort, agentHealthPort, agentNetwork, agentLogLevel, agentLogFormat, agentCpuRequest, agentMemoryRequest, agentMemoryLimit, agentReconcilePeriod, agentPodResourcesSocket, agentPinning, agentNriSocket, agentNriPluginIndex, agentCpusetPartitions, agentTolerations, agentNodeSelector, agentPodLabels, agentPodAnnotations, agentExtraEnv, agentExtraArgs, agentAffinity, agentServiceMonitor, serviceMonitorLabels, apiServer, hostSys, hostCgroup, hostStateDir, kubeletRootDir, kubeletConfigFile, restoreTimeout, errorWindow, leaderElection, leaseName, leaseNamespace, leaseDuration, renewDeadline, retryPeriod, logLevel, logFormat, healthPort, metricsPort, metricsSecurity, metricsCertFile, metricsKeyFile, metricsAuthCacheTtl, agentMetricsSecurity, agentMetricsCertSecret, agentMetricsScrapeTokenSecret, agentMetricsAuthCacheTtl",
                        "operator.yaml: namespace = \"Podnuma\": allowed a DNS label: at most 63 lowercase letters, digits and '-', starting and ending with a letter or digit",
                        "agentImage is required (the node agent's image reference): set it in the file, with --agent-image or with PODNUMA_OPERATOR_AGENT_IMAGE",
                        "operator.yaml: agentMetricsPort = \"0\": allowed a TCP port 1..65535"),
                start(
                        "op-unknown-flag",
                        "a flag the operator does not have",
                        new Start(OK, Map.of("agent-imag", "x"), Map.of()),
                        "unknown flag --agent-imag: allowed --config, --namespace, --agent-image, --agent-pull-policy, --agent-service-account, --agent-priority-class, --max-unavailable, --agent-metrics-port, --agent-health-port, --agent-network, --agent-log-level, --agent-log-format, --agent-cpu-request, --agent-memory-request, --agent-memory-limit, --agent-reconcile-period, --agent-pod-resources-socket, --agent-pinning, --agent-nri-socket, --agent-nri-plugin-index, --agent-cpuset-partitions, --agent-tolerations, --agent-node-selector, --agent-pod-labels, --agent-pod-annotations, --agent-extra-env, --agent-extra-args, --agent-affinity, --agent-service-monitor, --service-monitor-labels, --api-server, --host-sys, --host-cgroup, --host-state-dir, --kubelet-root-dir, --kubelet-config-file, --restore-timeout, --error-window, --leader-election, --lease-name, --lease-namespace, --lease-duration, --renew-deadline, --retry-period, --log-level, --log-format, --health-port, --metrics-port, --metrics-security, --metrics-cert-file, --metrics-key-file, --metrics-auth-cache-ttl, --agent-metrics-security, --agent-metrics-cert-secret, --agent-metrics-scrape-token-secret, --agent-metrics-auth-cache-ttl"),
                start(
                        "op-env-bad",
                        "an environment variable with a bad value",
                        new Start(OK, Map.of(), Map.of("PODNUMA_OPERATOR_LEADER_ELECTION", "maybe")),
                        "environment PODNUMA_OPERATOR_LEADER_ELECTION = \"maybe\": allowed true or false"));
    }

    private static BadInput file(String id, String wrong, String yaml, String... answer) {
        return start(id, wrong, new Start(yaml, Map.of(), Map.of()), answer);
    }

    private static BadInput start(String id, String wrong, Start s, String... answer) {
        STARTS.put(id, s);
        String input = "flags " + new TreeMap<>(s.flags()) + ", env " + new TreeMap<>(s.env()) + ", file:\n" + s.yaml();
        return new BadInput(id, KIND, wrong, input, List.of(answer), KEPT);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void theOperatorAnswersExactly(BadInput c) throws Exception {
        Start s = STARTS.get(c.id());
        Path file = dir.resolve("operator.yaml");
        Files.writeString(file, s.yaml());
        Map<String, String> flags = new HashMap<>(s.flags());
        flags.put("config", file.toString());
        List<String> problems;
        try {
            OperatorSettingsLoader.load(flags, s.env());
            throw new AssertionError("the loader accepted the input");
        } catch (OperatorSettingsException e) {
            problems = e.problems().stream()
                    .map(p -> p.replace(file.toString(), "operator.yaml"))
                    .toList();
        }
        c.assertAnswer(problems);
        assertThat(Files.readString(file)).isEqualTo(s.yaml());
    }

    @Test
    void theDocIsUpToDate() {
        assertThat(BadInputDoc.check(KIND, cases(), "operator", getClass().getSimpleName()))
                .isNull();
    }
}
