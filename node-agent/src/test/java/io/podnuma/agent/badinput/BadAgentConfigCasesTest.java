package io.podnuma.agent.badinput;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.testkit.badinput.BadInput;
import io.podnuma.testkit.badinput.BadInputDoc;
import io.podnuma.testkit.badinput.InputKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue's agent configurations: the YAML file, command-line flags and environment variables, as
 * {@code node-agent run} reads them. Every mistake of one start is in one answer: the flags, the file's header and
 * keys in the order of the settings, the cross checks, then the policy.
 */
class BadAgentConfigCasesTest {

    private static final InputKind KIND = InputKind.AGENT_CONFIG;
    private static final String KEPT = "the file is unchanged; the agent does not start (it keeps no state yet)";
    private static final String OK = ConfigRunner.HEADER + ConfigRunner.NODE + ConfigRunner.POLICY;

    /** A case's input: the file and what the command line and environment add. */
    record Start(String yaml, Map<String, String> flags, Map<String, String> env) {
        String describe() {
            return "flags " + new TreeMap<>(flags) + ", env " + new TreeMap<>(env) + ", file:\n" + yaml;
        }
    }

    @TempDir
    Path dir;

    private static final Map<String, Start> STARTS = new java.util.HashMap<>();

    static List<BadInput> cases() {
        return List.of(
                file(
                        "cfg-not-yaml",
                        "not YAML",
                        "nodeName: [worker\n",
                        "agent.yaml: not valid YAML: while parsing a flow sequence: expected ',' or ']', but got <stream end> (line 1, column 18)"),
                file(
                        "cfg-empty",
                        "an empty file",
                        "",
                        "agent.yaml: the file is empty; it needs at least apiVersion: podnuma.io/v1alpha1, kind: NodeAgentConfig, nodeName (or PODNUMA_NODE_NAME) and policy"),
                file(
                        "cfg-list",
                        "a list instead of a mapping",
                        "- nodeName\n",
                        "agent.yaml: must be a YAML mapping of settings, got a list"),
                file(
                        "cfg-two-documents",
                        "two YAML documents",
                        OK + "---\n" + OK,
                        "agent.yaml: holds more than one YAML document; the agent configuration is one document"),
                file(
                        "cfg-duplicate-key",
                        "a key given twice",
                        OK + "nodeName: worker-2\n",
                        "agent.yaml: not valid YAML: Duplicate field 'nodeName' (line 8, column 9)"),
                file(
                        "cfg-wrong-api-version",
                        "another apiVersion",
                        OK.replace("podnuma.io/v1alpha1", "podnuma.io/v1"),
                        "agent.yaml: apiVersion \"podnuma.io/v1\": allowed podnuma.io/v1alpha1"),
                file(
                        "cfg-wrong-kind",
                        "another kind",
                        OK.replace("NodeAgentConfig", "AgentConfig"),
                        "agent.yaml: kind \"AgentConfig\": allowed NodeAgentConfig"),
                file(
                        "cfg-unknown-key",
                        "a key the agent does not have",
                        OK + "metricPort: 9000\n",
                        "agent.yaml: unknown key \"metricPort\": allowed apiVersion, kind, nodeName, sysfsRoot, cgroupRoot, stateDir, podResourcesSocket, podResourcesSocketMode, kubeletPodResourcesSocket, metricsPort, healthPort, logLevel, logFormat, reconcilePeriod, kubeletCheckSocket, kubeletConfigFile, metricsBindAddress, healthBindAddress, podResourcesQps, podResourcesBurst, kubeletCallTimeout, cgroupDriver, exclusiveCpuQuota, pinning, nriSocket, nriPluginName, nriPluginIndex, statusMinInterval, kubeletCgroupRoot, policyName, metricsSecurity, metricsCertFile, metricsKeyFile, metricsAuthCacheTtl, policy"),
                file(
                        "cfg-missing-node",
                        "no node name anywhere",
                        ConfigRunner.HEADER + ConfigRunner.POLICY,
                        "nodeName is required (the Kubernetes node this agent runs on; in a DaemonSet, the downward API's spec.nodeName): set it in the file, with --node-name or with PODNUMA_NODE_NAME"),
                file(
                        "cfg-missing-policy",
                        "no policy",
                        ConfigRunner.HEADER + ConfigRunner.NODE,
                        "agent.yaml: policy is missing: it holds the NumaResourcePolicy spec in force on this node (the operator renders it into the agent's ConfigMap)"),
                file(
                        "cfg-node-name-invalid",
                        "a node name that is no DNS subdomain",
                        OK.replace("worker-1", "Worker_1"),
                        "agent.yaml: nodeName = \"Worker_1\": allowed a node name: at most 253 lowercase letters, digits, '-' and '.', starting and ending with a letter or digit"),
                file(
                        "cfg-relative-sysfs",
                        "a relative sysfs root",
                        OK + "sysfsRoot: sys\n",
                        "agent.yaml: sysfsRoot = \"sys\": allowed an absolute path (starting with /)"),
                file(
                        "cfg-null-value",
                        "a key without value",
                        OK + "stateDir:\n",
                        "agent.yaml: stateDir = \"\": allowed an absolute path (starting with /)"),
                file(
                        "cfg-mapping-value",
                        "a mapping where one value goes",
                        OK + "metricsPort: {port: 9464}\n",
                        "agent.yaml: metricsPort must be a single value, got a mapping"),
                file(
                        "cfg-port-zero",
                        "port 0",
                        OK + "metricsPort: 0\n",
                        "agent.yaml: metricsPort = \"0\": allowed a TCP port 1..65535"),
                file(
                        "cfg-port-too-high",
                        "port above 65535",
                        OK + "healthPort: 70000\n",
                        "agent.yaml: healthPort = \"70000\": allowed a TCP port 1..65535"),
                file(
                        "cfg-same-ports",
                        "metrics and health on one port",
                        OK + "metricsPort: 8081\n",
                        "metricsPort and healthPort are both 8081: they must differ"),
                file(
                        "cfg-socket-mode-number",
                        "the socket mode unquoted",
                        OK + "podResourcesSocketMode: 0600\n",
                        "agent.yaml: podResourcesSocketMode is the YAML number 384: write the mode as a quoted string, e.g. \"0600\" (unquoted, YAML reads 0600 as octal 384)"),
                file(
                        "cfg-socket-mode-world",
                        "a world-writable socket mode",
                        OK + "podResourcesSocketMode: \"0666\"\n",
                        "agent.yaml: podResourcesSocketMode = \"0666\": the socket may not be writable by others (any local user could read every pod's assignment); allowed e.g. 0600 or 0660"),
                file(
                        "cfg-log-level",
                        "an unknown log level",
                        OK + "logLevel: verbose\n",
                        "agent.yaml: logLevel = \"verbose\": allowed trace, debug, info, warn, error"),
                file(
                        "cfg-log-format",
                        "a log format the agent does not write",
                        OK + "logFormat: logfmt\n",
                        "agent.yaml: logFormat = \"logfmt\": allowed text, json"),
                start(
                        "cfg-env-log-format",
                        "a log format in the environment, in upper case",
                        new Start(OK, Map.of(), Map.of("PODNUMA_LOG_FORMAT", "JSON")),
                        "environment PODNUMA_LOG_FORMAT = \"JSON\": allowed text, json"),
                file(
                        "cfg-reconcile-too-short",
                        "reconcilePeriod below 1s",
                        OK + "reconcilePeriod: 100ms\n",
                        "agent.yaml: reconcilePeriod = \"100ms\": allowed a duration such as 500ms, 10s, 1m30s or 1h (units ms, s, m, h) from 1s to 1h"),
                file(
                        "cfg-timeout-no-unit",
                        "a timeout without a unit",
                        OK + "kubeletCallTimeout: \"10\"\n",
                        "agent.yaml: kubeletCallTimeout = \"10\": allowed a duration such as 500ms, 10s, 1m30s or 1h (units ms, s, m, h) from 100ms to 5m"),
                file(
                        "cfg-qps-negative",
                        "negative PodResources qps",
                        OK + "podResourcesQps: -1\n",
                        "agent.yaml: podResourcesQps = \"-1\": allowed a number of calls per second above 0 and at most 1000000, e.g. 100 or 0.5"),
                file(
                        "cfg-burst-zero",
                        "PodResources burst 0",
                        OK + "podResourcesBurst: 0\n",
                        "agent.yaml: podResourcesBurst = \"0\": allowed a whole number of calls from 1 to 1000000"),
                file(
                        "cfg-cgroup-driver",
                        "an unknown cgroup driver",
                        OK + "cgroupDriver: openrc\n",
                        "agent.yaml: cgroupDriver = \"openrc\": allowed auto, cgroupfs, systemd"),
                file(
                        "cfg-pinning",
                        "an unknown pinning mode",
                        OK + "pinning: both\n",
                        "agent.yaml: pinning = \"both\": allowed auto, nri, cgroup"),
                file(
                        "cfg-nri-index-number",
                        "the NRI index unquoted",
                        OK + "nriPluginIndex: 05\n",
                        "agent.yaml: nriPluginIndex is the YAML number 5: write the index as a quoted string of two digits, e.g. \"40\" (unquoted, YAML reads 05 as 5)"),
                file(
                        "cfg-nri-name",
                        "an NRI plugin name with a space",
                        OK + "nriPluginName: \"pod numa\"\n",
                        "agent.yaml: nriPluginName = \"pod numa\": allowed letters, digits, '_', '.', '+' and '-' (the runtime refuses any other name), e.g. podnuma"),
                file(
                        "cfg-same-sockets",
                        "the kubelet's socket is the agent's own",
                        OK + "podResourcesSocket: /run/pr.sock\nkubeletPodResourcesSocket: /run/pr.sock\n",
                        "podResourcesSocket and kubeletPodResourcesSocket are both /run/pr.sock: the kubelet's socket must be a different one (the agent would merge its own answers)"),
                file(
                        "cfg-check-own-socket",
                        "the coexistence check asks the agent's own socket",
                        OK + "podResourcesSocket: /run/pr.sock\nkubeletCheckSocket: /run/pr.sock\n",
                        "podResourcesSocket and kubeletCheckSocket are both /run/pr.sock: the kubelet's socket must be a different one (the agent would find its own exclusive CPUs and take them for the kubelet's static policy)"),
                start(
                        "cfg-unknown-flag",
                        "a flag the agent does not have",
                        new Start(OK, Map.of("metric-port", "9000"), Map.of()),
                        "unknown flag --metric-port: allowed --config, --node-name, --sysfs-root, --cgroup-root, --state-dir, --pod-resources-socket, --pod-resources-socket-mode, --kubelet-pod-resources-socket, --metrics-port, --health-port, --log-level, --log-format, --reconcile-period, --kubelet-check-socket, --kubelet-config-file, --metrics-bind-address, --health-bind-address, --pod-resources-qps, --pod-resources-burst, --kubelet-call-timeout, --cgroup-driver, --exclusive-cpu-quota, --pinning, --nri-socket, --nri-plugin-name, --nri-plugin-index, --status-min-interval, --kubelet-cgroup-root, --policy-name, --metrics-security, --metrics-cert-file, --metrics-key-file, --metrics-auth-cache-ttl"),
                start(
                        "cfg-flag-bad-port",
                        "a flag with a bad port",
                        new Start(OK, Map.of("metrics-port", "http"), Map.of()),
                        "flag --metrics-port = \"http\": allowed a TCP port 1..65535"),
                start(
                        "cfg-env-bad-period",
                        "an environment variable with a bad duration",
                        new Start(OK, Map.of(), Map.of("PODNUMA_RECONCILE_PERIOD", "soon")),
                        "environment PODNUMA_RECONCILE_PERIOD = \"soon\": allowed a duration such as 500ms, 10s, 1m30s or 1h (units ms, s, m, h) from 1s to 1h"),
                start(
                        "cfg-flag-wins",
                        "a bad file value a flag overrides, beside a bad env value",
                        new Start(
                                OK + "logLevel: verbose\n",
                                Map.of("log-level", "debug"),
                                Map.of("PODNUMA_HEALTH_PORT", "-1")),
                        "environment PODNUMA_HEALTH_PORT = \"-1\": allowed a TCP port 1..65535"),
                file(
                        "cfg-metrics-security",
                        "metricsSecurity neither http nor https",
                        OK + "metricsSecurity: tls\n",
                        "agent.yaml: metricsSecurity = \"tls\": allowed http or https"),
                file(
                        "cfg-metrics-cert-without-key",
                        "a metrics certificate without its key",
                        OK + "metricsSecurity: https\nmetricsCertFile: /etc/tls/tls.crt\n",
                        "metricsCertFile is set without metricsKeyFile: set both (a certificate and its key) or neither (a self-signed certificate made at start)"),
                file(
                        "cfg-metrics-cert-plain",
                        "certificate files while /metrics stays plain http",
                        OK + "metricsCertFile: /etc/tls/tls.crt\nmetricsKeyFile: /etc/tls/tls.key\n",
                        "metricsCertFile and metricsKeyFile are set but metricsSecurity is http: set metricsSecurity: https to serve /metrics over TLS, or remove the certificate files"),
                file(
                        "cfg-metrics-key-relative",
                        "a relative metrics key path",
                        OK + "metricsSecurity: https\nmetricsCertFile: /etc/tls/tls.crt\nmetricsKeyFile: tls.key\n",
                        "agent.yaml: metricsKeyFile = \"tls.key\": allowed an absolute path (starting with /)"),
                start(
                        "cfg-metrics-cache-ttl",
                        "a scrape decision cache TTL above 10 minutes, from the environment",
                        new Start(OK, Map.of(), Map.of("PODNUMA_METRICS_AUTH_CACHE_TTL", "1h")),
                        "environment PODNUMA_METRICS_AUTH_CACHE_TTL = \"1h\": allowed a duration such as 500ms, 10s, 1m30s or 1h (units ms, s, m, h) from 0s to 10m"),
                file(
                        "cfg-many-mistakes",
                        "five mistakes in one file",
                        ConfigRunner.HEADER.replace("NodeAgentConfig", "Config") + ConfigRunner.POLICY
                                + "metricsPort: 0\nlogLevel: loud\nfoo: bar\n",
                        "agent.yaml: kind \"Config\": allowed NodeAgentConfig",
                        "agent.yaml: unknown key \"foo\": allowed apiVersion, kind, nodeName, sysfsRoot, cgroupRoot, stateDir, podResourcesSocket, podResourcesSocketMode, kubeletPodResourcesSocket, metricsPort, healthPort, logLevel, logFormat, reconcilePeriod, kubeletCheckSocket, kubeletConfigFile, metricsBindAddress, healthBindAddress, podResourcesQps, podResourcesBurst, kubeletCallTimeout, cgroupDriver, exclusiveCpuQuota, pinning, nriSocket, nriPluginName, nriPluginIndex, statusMinInterval, kubeletCgroupRoot, policyName, metricsSecurity, metricsCertFile, metricsKeyFile, metricsAuthCacheTtl, policy",
                        "nodeName is required (the Kubernetes node this agent runs on; in a DaemonSet, the downward API's spec.nodeName): set it in the file, with --node-name or with PODNUMA_NODE_NAME",
                        "agent.yaml: metricsPort = \"0\": allowed a TCP port 1..65535",
                        "agent.yaml: logLevel = \"loud\": allowed trace, debug, info, warn, error"));
    }

    private static BadInput file(String id, String wrong, String yaml, String... answer) {
        return start(id, wrong, new Start(yaml, Map.of(), Map.of()), answer);
    }

    private static BadInput start(String id, String wrong, Start s, String... answer) {
        STARTS.put(id, s);
        return new BadInput(id, KIND, wrong, s.describe(), List.of(answer), KEPT);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void theAgentAnswersExactly(BadInput c) {
        Start s = STARTS.get(c.id());
        c.assertAnswer(ConfigRunner.refused(dir, s.yaml(), s.flags(), s.env()));
    }

    @Test
    void theDocIsUpToDate() {
        assertThat(BadInputDoc.check(KIND, cases(), "node-agent", getClass().getSimpleName()))
                .isNull();
    }
}
