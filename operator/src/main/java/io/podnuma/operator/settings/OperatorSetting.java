package io.podnuma.operator.settings;

import com.fasterxml.jackson.databind.node.JsonNodeType;
import io.podnuma.crds.agent.v1alpha1.LogLevel;
import io.podnuma.crds.settings.Durations;
import io.podnuma.crds.settings.SettingDefinition;
import io.podnuma.crds.settings.SettingType;
import io.podnuma.crds.settings.SettingValues;
import io.podnuma.logging.LogFormat;
import io.podnuma.operator.render.AgentAnnotations;
import io.podnuma.operator.render.AgentHostPaths;
import io.podnuma.operator.render.AgentLabels;
import io.podnuma.operator.render.AgentPinning;
import io.podnuma.operator.render.AgentRollout;
import io.podnuma.operator.render.AgentSecureMetrics;
import io.podnuma.operator.render.ApiServerEndpoint;
import io.podnuma.operator.render.PodNetwork;
import io.podnuma.operator.render.PullPolicy;
import io.podnuma.securemetrics.MetricsSecurity;
import io.podnuma.securemetrics.SecureMetricsSettings;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One operator setting: its key in the file, its flag and variable, its default and how its value is read. */
public enum OperatorSetting implements SettingDefinition {
    NAMESPACE(
            "namespace",
            "podnuma-system",
            "the operator's namespace: the agents' objects and the Lease live here",
            SettingValues::dnsLabel),
    AGENT_IMAGE("agentImage", null, "the node agent's image reference", OperatorSetting::image),
    AGENT_PULL_POLICY(
            "agentPullPolicy",
            "IfNotPresent",
            "the agent container's imagePullPolicy: Always, IfNotPresent" + " or Never",
            OperatorSetting::pullPolicy),
    AGENT_SERVICE_ACCOUNT(
            "agentServiceAccount",
            "podnuma-agent",
            "the agents' ServiceAccount (the chart makes it)",
            SettingValues::dnsSubdomain),
    AGENT_PRIORITY_CLASS(
            "agentPriorityClass",
            "system-node-critical",
            "the agent pods' priorityClassName; empty:" + " none",
            OperatorSetting::optionalDnsSubdomain),
    MAX_UNAVAILABLE(
            "maxUnavailable",
            "10%",
            "how many nodes' agents may be down at once in a rollout: a count (3)" + " or a percentage 1%..100%",
            OperatorSetting::maxUnavailable),
    AGENT_METRICS_PORT("agentMetricsPort", "9464", "the agents' /metrics port", SettingValues::port),
    AGENT_HEALTH_PORT(
            "agentHealthPort", "8081", "the agents' /healthz, /startupz and /readyz port", SettingValues::port),
    AGENT_NETWORK("agentNetwork", "host", "the agent pods' network: host or pod", OperatorSetting::network),
    AGENT_LOG_LEVEL(
            "agentLogLevel", "info", "the agents' log level: trace, debug, info, warn or error", LogLevel::parse),
    AGENT_LOG_FORMAT(
            "agentLogFormat",
            "text",
            "the agents' log lines: text (ISO-8601 UTC time, thread, level, logger, message) or json (an object a"
                    + " line)",
            LogFormat::parse),
    AGENT_CPU_REQUEST(
            "agentCpuRequest",
            "50m",
            "the agent container's CPU request, a quantity (50m); empty: none",
            OperatorSetting::optionalQuantity),
    AGENT_MEMORY_REQUEST(
            "agentMemoryRequest",
            "160Mi",
            "the agent container's memory request, a quantity (160Mi); empty: none",
            OperatorSetting::optionalQuantity),
    AGENT_MEMORY_LIMIT(
            "agentMemoryLimit",
            "256Mi",
            "the agent container's memory limit, a quantity (256Mi); empty: none",
            OperatorSetting::optionalQuantity),
    AGENT_RECONCILE_PERIOD(
            "agentReconcilePeriod",
            "",
            "the agents' reconcile period (1s..1h); empty: the agent's default",
            v -> v.isEmpty()
                    ? Optional.empty()
                    : Optional.of(
                            Durations.within(v, AgentRollout.MIN_RECONCILE_PERIOD, AgentRollout.MAX_RECONCILE_PERIOD))),
    AGENT_POD_RESOURCES_SOCKET(
            "agentPodResourcesSocket",
            AgentHostPaths.DEFAULT_POD_RESOURCES_SOCKET,
            "where the agents' PodResources socket appears on the nodes, an absolute path ending in .sock (its"
                    + " directory is mounted into the agent)",
            OperatorSetting::socket),
    AGENT_PINNING(
            "agentPinning",
            "auto",
            "how the agents pin containers: nri (born pinned, as an NRI plugin of the runtime), cgroup (by writing"
                    + " each container's cgroup after its creation; no NRI socket mounted) or auto (nri where the"
                    + " runtime's NRI socket answers, else cgroup)",
            OperatorSetting::pinning),
    AGENT_NRI_SOCKET(
            "agentNriSocket",
            AgentHostPaths.DEFAULT_NRI_SOCKET,
            "the container runtime's NRI socket on the nodes, an absolute path (its directory is mounted into the"
                    + " agent unless agentPinning is cgroup)",
            OperatorSetting::nriSocket),
    AGENT_NRI_PLUGIN_INDEX(
            "agentNriPluginIndex",
            AgentRollout.DEFAULT_NRI_PLUGIN_INDEX,
            "the agents' NRI plugin index, two digits 00..99 (quoted in YAML): the runtime calls plugins in ascending"
                    + " order",
            OperatorSetting::nriPluginIndex),
    AGENT_CPUSET_PARTITIONS(
            "agentCpusetPartitions",
            "false",
            "true: the agents of a policy with cpuManager.partition root or isolated get CAP_SYS_ADMIN, which the kernel"
                    + " requires to make a cpuset partition below the root (the chart's admission policy allows it only"
                    + " then); false: no agent gets it, and such a policy falls back (its nodes' condition Partitioned)",
            SettingValues::bool),
    AGENT_TOLERATIONS(
            "agentTolerations",
            "[{\"operator\":\"Exists\"}]",
            "the agent pods' tolerations, a list (default: every taint); [] for none",
            new SettingType.Structure(JsonNodeType.ARRAY, TolerationReader.RULE, TolerationReader::read)),
    AGENT_NODE_SELECTOR(
            "agentNodeSelector",
            "{}",
            "extra node-selector terms of the agent pods, a map, ANDed with the policy's podnuma.io/policy label"
                    + " (which it may not set)",
            new SettingType.Structure(
                    JsonNodeType.OBJECT,
                    LabelMapReader.rule("node labels"),
                    new LabelMapReader(
                                    AgentLabels.RESERVED_IN_NODE_SELECTOR,
                                    "the operator selects the nodes of the policy by it")::read)),
    AGENT_POD_LABELS(
            "agentPodLabels",
            "{}",
            "extra labels on the agent pods and on their ConfigMap, DaemonSet and Service, a map (not "
                    + String.join(", ", AgentLabels.RESERVED) + ")",
            labels()),
    AGENT_POD_ANNOTATIONS(
            "agentPodAnnotations",
            "{}",
            "extra annotations on the agent pods, a map of text (not "
                    + String.join(", ", AgentAnnotations.RESERVED)
                    + "), e.g. the runtime's NRI toleration annotation when it requires the agent's plugin",
            new SettingType.Structure(JsonNodeType.OBJECT, AnnotationMapReader.RULE, AnnotationMapReader::read)),
    AGENT_EXTRA_ENV(
            "agentExtraEnv",
            "[]",
            "extra environment variables of the agent containers after the operator's, a list of {name, value} (plain"
                    + " values; not PODNUMA_NODE_NAME, KUBERNETES_SERVICE_HOST/PORT or any PODNUMA_ name)",
            new SettingType.Structure(JsonNodeType.ARRAY, AgentExtrasReader.ENV_RULE, AgentExtrasReader::env)),
    AGENT_EXTRA_ARGS(
            "agentExtraArgs",
            "[]",
            "extra arguments of the agent containers after run --config <file>, a list of text",
            new SettingType.Structure(JsonNodeType.ARRAY, AgentExtrasReader.ARGS_RULE, AgentExtrasReader::args)),
    AGENT_AFFINITY(
            "agentAffinity",
            "{}",
            "the agent pods' affinity, a Kubernetes Affinity map (beside the policy's node selector); {} for none",
            new SettingType.Structure(
                    JsonNodeType.OBJECT, AgentExtrasReader.AFFINITY_RULE, AgentExtrasReader::affinity)),
    AGENT_SERVICE_MONITOR(
            "agentServiceMonitor",
            "true",
            "true: a ServiceMonitor per policy for the agents where the cluster serves monitoring.coreos.com;"
                    + " false: never (scrape them with a PodMonitor)",
            SettingValues::bool),
    SERVICE_MONITOR_LABELS(
            "serviceMonitorLabels",
            "{}",
            "extra labels on the agents' ServiceMonitors, a map (kube-prometheus-stack selects monitors by its"
                    + " release label)",
            labels()),
    API_SERVER(
            "apiServer",
            "",
            "host:port the agents dial instead of the kubernetes Service (clusters without"
                    + " kube-proxy); empty: the Service",
            OperatorSetting::apiServer),
    HOST_SYS("hostSys", "/sys", "the nodes' sysfs", SettingValues::absolutePath),
    HOST_CGROUP("hostCgroup", "/sys/fs/cgroup", "the nodes' cgroup mount", SettingValues::absolutePath),
    HOST_STATE_DIR(
            "hostStateDir",
            "/var/lib/podnuma",
            "the agents' state directory on the nodes",
            SettingValues::absolutePath),
    KUBELET_ROOT_DIR(
            "kubeletRootDir",
            "/var/lib/kubelet",
            "the kubelet's --root-dir on the nodes: only its pod-resources directory is mounted (the"
                    + " coexistence check asks the kubelet's socket there); empty: not mounted",
            OperatorSetting::optionalAbsolutePath),
    KUBELET_CONFIG_FILE(
            "kubeletConfigFile",
            "/var/lib/kubelet/config.yaml",
            "the kubelet's configuration file on" + " the nodes; empty: not mounted",
            OperatorSetting::optionalAbsolutePath),
    RESTORE_TIMEOUT(
            "restoreTimeout",
            "5m",
            "how long a deleted policy waits for its agents to restore their nodes" + " (1s..24h)",
            v -> Durations.within(v, Duration.ofSeconds(1), Duration.ofHours(24))),
    ERROR_WINDOW(
            "errorWindow",
            "10m",
            "how long an agent's last error marks its node failing (0s..24h)",
            v -> Durations.within(v, Duration.ZERO, Duration.ofHours(24))),
    LEADER_ELECTION(
            "leaderElection",
            "true",
            "true: reconcile only while holding the Lease (several replicas are" + " safe); false: a single replica",
            SettingValues::bool),
    LEASE_NAME("leaseName", "podnuma-operator", "the leader-election Lease", SettingValues::dnsSubdomain),
    LEASE_NAMESPACE(
            "leaseNamespace",
            "",
            "the Lease's namespace; empty: the operator's namespace",
            OperatorSetting::optionalDnsLabel),
    LEASE_DURATION(
            "leaseDuration",
            "15s",
            "how long the Lease holds without a renewal: a standby takes it over this long after the leader's last"
                    + " renewal (" + LeaseTimings.RANGE + "; more than renewDeadline)",
            v -> Durations.within(v, LeaseTimings.MIN, LeaseTimings.MAX)),
    RENEW_DEADLINE(
            "renewDeadline",
            "10s",
            "how long the leader keeps failing to renew the Lease before it stops leading (and exits, to be restarted)"
                    + " (" + LeaseTimings.RANGE + "; less than leaseDuration)",
            v -> Durations.within(v, LeaseTimings.MIN, LeaseTimings.MAX)),
    RETRY_PERIOD(
            "retryPeriod",
            "2s",
            "how often a replica tries to take or renew the Lease (" + LeaseTimings.RANGE
                    + "; less than renewDeadline)",
            v -> Durations.within(v, LeaseTimings.MIN, LeaseTimings.MAX)),
    LOG_LEVEL(
            "logLevel",
            "info",
            "the operator's log level, for every logger of the process: trace, debug, info, warn or error",
            LogLevel::parse),
    LOG_FORMAT(
            "logFormat",
            "text",
            "how the operator writes records to stderr: text (a line each: ISO-8601 UTC time, thread, level, logger,"
                    + " message) or json (an object a line: time, level, logger, thread, message, exception)",
            LogFormat::parse),
    HEALTH_PORT("healthPort", "8080", "the operator's /healthz and /readyz port", SettingValues::port),
    METRICS_PORT("metricsPort", "9090", "the operator's /metrics port", SettingValues::port),
    METRICS_SECURITY(
            "metricsSecurity",
            "http",
            "how the operator serves /metrics: http (anyone who reaches the port may scrape) or https (TLS, and each"
                    + " scrape needs a bearer token whose identity may get /metrics: TokenReview, then"
                    + " SubjectAccessReview)",
            MetricsSecurity::parse),
    METRICS_CERT_FILE(
            "metricsCertFile",
            "",
            "with metricsKeyFile, the PEM certificate of the operator's /metrics over https (a mounted"
                    + " kubernetes.io/tls Secret, reloaded when it changes); empty: a self-signed one made at start",
            OperatorSetting::optionalAbsolutePath),
    METRICS_KEY_FILE(
            "metricsKeyFile",
            "",
            "the PEM private key of metricsCertFile; empty: none",
            OperatorSetting::optionalAbsolutePath),
    METRICS_AUTH_CACHE_TTL(
            "metricsAuthCacheTtl",
            "1m",
            "over https, how long the answer for one scrape token is reused (0s..10m)",
            v -> Durations.within(v, Duration.ZERO, SecureMetricsSettings.MAX_TTL)),
    AGENT_METRICS_SECURITY(
            "agentMetricsSecurity",
            "http",
            "how the agents serve /metrics: http or https (as metricsSecurity; their ServiceMonitor then scrapes with"
                    + " https and Prometheus's ServiceAccount token)",
            MetricsSecurity::parse),
    AGENT_METRICS_CERT_SECRET(
            "agentMetricsCertSecret",
            "",
            "a kubernetes.io/tls Secret in the operator's namespace mounted into the agents as their /metrics"
                    + " certificate (with agentMetricsSecurity https); empty: each agent makes a self-signed one",
            OperatorSetting::optionalDnsSubdomain),
    AGENT_METRICS_SCRAPE_TOKEN_SECRET(
            "agentMetricsScrapeTokenSecret",
            "",
            "a ServiceAccount token Secret (key token) in the operator's namespace the agents' ServiceMonitors send"
                    + " with agentMetricsSecurity https; empty: Prometheus's own ServiceAccount token",
            OperatorSetting::optionalDnsSubdomain),
    AGENT_METRICS_AUTH_CACHE_TTL(
            "agentMetricsAuthCacheTtl",
            "",
            "the agents' metricsAuthCacheTtl (0s..10m) with agentMetricsSecurity https; empty: the agent's default",
            v -> v.isEmpty()
                    ? Optional.empty()
                    : Optional.of(Durations.within(v, Duration.ZERO, AgentSecureMetrics.MAX_CACHE_TTL)));

    private static final Pattern MAX_UNAVAILABLE_VALUE = Pattern.compile("([1-9][0-9]*|[1-9][0-9]?%|100%)");
    private static final Pattern QUANTITY = Pattern.compile("([0-9]+(\\.[0-9]+)?)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?");
    private static final Pattern HOST_PORT = Pattern.compile("(.+):([0-9]{1,5})");

    private final Spec spec;

    OperatorSetting(String key, String defaultValue, String description, Function<String, ?> parser) {
        this(key, defaultValue, description, new SettingType.Text(parser));
    }

    OperatorSetting(String key, String defaultValue, String description, SettingType type) {
        this.spec = new Spec(key, defaultValue, description, type);
    }

    @Override
    public Spec spec() {
        return spec;
    }

    /** {@code PODNUMA_OPERATOR_} and the name: {@code PODNUMA_OPERATOR_AGENT_IMAGE}. */
    @Override
    public String env() {
        return "PODNUMA_OPERATOR_" + name();
    }

    private static SettingType labels() {
        return new SettingType.Structure(
                JsonNodeType.OBJECT,
                LabelMapReader.rule("labels"),
                new LabelMapReader(AgentLabels.RESERVED, "the operator sets it (it finds the agents' objects by it)")
                        ::read);
    }

    private static String socket(String v) {
        AgentHostPaths.socketProblem(v).ifPresent(p -> {
            throw new IllegalArgumentException("allowed " + p);
        });
        return v;
    }

    private static String nriSocket(String v) {
        AgentHostPaths.nriSocketProblem(v).ifPresent(p -> {
            throw new IllegalArgumentException("allowed " + p);
        });
        return v;
    }

    private static AgentPinning pinning(String v) {
        return Arrays.stream(AgentPinning.values())
                .filter(p -> p.wire().equals(v))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("allowed auto, nri or cgroup"));
    }

    private static String nriPluginIndex(String v) {
        if (!v.matches("[0-9]{2}")) {
            throw new IllegalArgumentException("allowed " + AgentRollout.NRI_PLUGIN_INDEX_RULE);
        }
        return v;
    }

    private static Optional<String> optionalDnsLabel(String v) {
        return v.isEmpty() ? Optional.empty() : Optional.of(SettingValues.dnsLabel(v));
    }

    private static Optional<String> optionalDnsSubdomain(String v) {
        return v.isEmpty() ? Optional.empty() : Optional.of(SettingValues.dnsSubdomain(v));
    }

    private static String image(String v) {
        if (v.isBlank() || v.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException(
                    "allowed an image reference without spaces, e.g." + " registry.example/podnuma/node-agent:0.1.0");
        }
        return v;
    }

    private static PullPolicy pullPolicy(String v) {
        return Arrays.stream(PullPolicy.values())
                .filter(p -> p.wire().equals(v))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("allowed Always, IfNotPresent or Never"));
    }

    private static String maxUnavailable(String v) {
        if (!MAX_UNAVAILABLE_VALUE.matcher(v).matches()) {
            throw new IllegalArgumentException("allowed a count of at least 1 (3) or a percentage 1%..100% (10%)");
        }
        return v;
    }

    private static PodNetwork network(String v) {
        return switch (v) {
            case "host" -> PodNetwork.HOST;
            case "pod" -> PodNetwork.POD;
            default -> throw new IllegalArgumentException("allowed host or pod");
        };
    }

    private static Optional<ApiServerEndpoint> apiServer(String v) {
        if (v.isEmpty()) {
            return Optional.empty();
        }
        Matcher m = HOST_PORT.matcher(v);
        if (m.matches()) {
            int port = Integer.parseInt(m.group(2));
            if (port >= 1 && port <= 65535) {
                return Optional.of(new ApiServerEndpoint(m.group(1), port));
            }
        }
        throw new IllegalArgumentException("allowed host:port with a port 1..65535, e.g. 10.0.0.1:6443, or empty");
    }

    private static Optional<io.fabric8.kubernetes.api.model.Quantity> optionalQuantity(String v) {
        if (v.isEmpty()) {
            return Optional.empty();
        }
        if (!QUANTITY.matcher(v).matches()) {
            throw new IllegalArgumentException(
                    "allowed a Kubernetes quantity: a number with an optional suffix (50m, 1, 160Mi, 1Gi) or empty");
        }
        return Optional.of(new io.fabric8.kubernetes.api.model.Quantity(v));
    }

    private static Optional<String> optionalAbsolutePath(String v) {
        return v.isEmpty() ? Optional.empty() : Optional.of(SettingValues.absolutePath(v));
    }
}
