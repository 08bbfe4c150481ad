package io.podnuma.operator.settings;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Affinity;
import io.podnuma.crds.agent.v1alpha1.LogLevel;
import io.podnuma.crds.settings.SettingSources;
import io.podnuma.crds.settings.SettingsFile;
import io.podnuma.crds.yaml.YamlProblems;
import io.podnuma.logging.LogFormat;
import io.podnuma.operator.render.AgentExtras;
import io.podnuma.operator.render.AgentHostPaths;
import io.podnuma.operator.render.AgentPinning;
import io.podnuma.operator.render.AgentRollout;
import io.podnuma.operator.render.AgentSecureMetrics;
import io.podnuma.operator.render.AgentServiceMonitor;
import io.podnuma.operator.render.AgentToleration;
import io.podnuma.operator.render.ApiServerEndpoint;
import io.podnuma.operator.render.PodNetwork;
import io.podnuma.operator.render.PullPolicy;
import io.podnuma.securemetrics.MetricsSecurity;
import io.podnuma.securemetrics.SecureMetricsSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the operator's settings. Each {@link OperatorSetting} takes the first value found in: a flag
 * ({@code --agent-image}), an environment variable ({@code PODNUMA_OPERATOR_AGENT_IMAGE}), the YAML file (a flat map,
 * {@code agentImage: ...}), its default. A list or map setting ({@code agentTolerations}) is YAML in the file and JSON
 * as a flag or a variable. The file is {@code --config}, else {@code $PODNUMA_OPERATOR_CONFIG}; without
 * either, only flags, the environment and the defaults count. Unknown keys and flags are errors; every problem is
 * reported at once.
 */
public final class OperatorSettingsLoader {

    public static final String CONFIG_FLAG = "config";
    public static final String CONFIG_ENV = "PODNUMA_OPERATOR_CONFIG";
    static final SettingsFile FILE =
            new SettingsFile(CONFIG_FLAG, CONFIG_ENV, 256 * 1024, "settings file", "operator settings");

    /** A key given twice is refused: which of its values was meant cannot be known. */
    private static final ObjectMapper YAML =
            new ObjectMapper(new YAMLFactory().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION));

    private OperatorSettingsLoader() {}

    public static OperatorSettings load(Map<String, String> flags, Map<String, String> env) {
        String file = FILE.name(flags, env, null);
        if (file == null) {
            return parse("", "(no file)", flags, env);
        }
        return parse(FILE.read(file, OperatorSettingsException::new), file, flags, env);
    }

    /** {@link #load} on a file's text; {@code fileName} only names it in messages. */
    public static OperatorSettings parse(
            String yaml, String fileName, Map<String, String> flags, Map<String, String> env) {
        List<String> problems = new ArrayList<>(SettingSources.unknownFlags(OperatorSetting.class, CONFIG_FLAG, flags));
        Map<String, JsonNode> file = fileValues(yaml, fileName, problems);
        Map<OperatorSetting, Object> values = SettingSources.resolve(
                        OperatorSetting.class,
                        flags,
                        env,
                        fileName,
                        s -> Optional.ofNullable(file.get(s.key())).map(SettingSources.FileEntry.Value::new),
                        problems)
                .values();
        if (problems.isEmpty()) {
            crossCheck(values, problems);
        }
        if (!problems.isEmpty()) {
            throw new OperatorSettingsException(problems);
        }
        return build(values);
    }

    private static void crossCheck(Map<OperatorSetting, Object> values, List<String> problems) {
        if (values.get(OperatorSetting.AGENT_METRICS_PORT).equals(values.get(OperatorSetting.AGENT_HEALTH_PORT))) {
            problems.add("agentMetricsPort and agentHealthPort are both "
                    + values.get(OperatorSetting.AGENT_METRICS_PORT) + ": allowed two different ports");
        }
        if (values.get(OperatorSetting.METRICS_PORT).equals(values.get(OperatorSetting.HEALTH_PORT))) {
            problems.add("metricsPort and healthPort are both " + values.get(OperatorSetting.METRICS_PORT)
                    + ": allowed two different ports");
        }
        boolean cert = ((Optional<?>) values.get(OperatorSetting.METRICS_CERT_FILE)).isPresent();
        boolean key = ((Optional<?>) values.get(OperatorSetting.METRICS_KEY_FILE)).isPresent();
        if (cert != key) {
            problems.add(
                    (cert
                                    ? "metricsCertFile is set without metricsKeyFile"
                                    : "metricsKeyFile is set without" + " metricsCertFile")
                            + ": allowed both (a certificate and its key) or neither (a self-signed certificate made at start)");
        } else if (cert && values.get(OperatorSetting.METRICS_SECURITY) == MetricsSecurity.HTTP) {
            problems.add("metricsCertFile and metricsKeyFile are set but metricsSecurity is http: allowed"
                    + " metricsSecurity https with them, or no certificate files");
        }
        if (values.get(OperatorSetting.AGENT_METRICS_SECURITY) == MetricsSecurity.HTTP
                && ((Optional<?>) values.get(OperatorSetting.AGENT_METRICS_CERT_SECRET)).isPresent()) {
            problems.add("agentMetricsCertSecret is set but agentMetricsSecurity is http: allowed"
                    + " agentMetricsSecurity https with it, or no Secret");
        }
        problems.addAll(LeaseTimings.problems(
                (Duration) values.get(OperatorSetting.LEASE_DURATION),
                (Duration) values.get(OperatorSetting.RENEW_DEADLINE),
                (Duration) values.get(OperatorSetting.RETRY_PERIOD)));
        String nri = (String) values.get(OperatorSetting.AGENT_NRI_SOCKET);
        String podResources = (String) values.get(OperatorSetting.AGENT_POD_RESOURCES_SOCKET);
        if (nri.substring(0, nri.lastIndexOf('/')).equals(podResources.substring(0, podResources.lastIndexOf('/')))) {
            problems.add("agentNriSocket " + nri + " and agentPodResourcesSocket " + podResources
                    + " are in one directory: allowed two different directories (the agent's own socket directory"
                    + " is mounted writable, the runtime's read-only)");
        }
    }

    /** The resources of those settings that are set (an empty setting leaves its resource out). */
    @SuppressWarnings("unchecked")
    private static Map<String, io.fabric8.kubernetes.api.model.Quantity> resources(
            Map<OperatorSetting, Object> v, Map<String, OperatorSetting> byResource) {
        Map<String, io.fabric8.kubernetes.api.model.Quantity> out = new java.util.TreeMap<>();
        byResource.forEach((resource, setting) -> ((Optional<io.fabric8.kubernetes.api.model.Quantity>) v.get(setting))
                .ifPresent(q -> out.put(resource, q)));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static OperatorSettings build(Map<OperatorSetting, Object> v) {
        AgentRollout.Builder b = AgentRollout.defaults((String) v.get(OperatorSetting.AGENT_IMAGE)).toBuilder()
                .namespace((String) v.get(OperatorSetting.NAMESPACE))
                .pullPolicy((PullPolicy) v.get(OperatorSetting.AGENT_PULL_POLICY))
                .serviceAccountName((String) v.get(OperatorSetting.AGENT_SERVICE_ACCOUNT))
                .priorityClassName((Optional<String>) v.get(OperatorSetting.AGENT_PRIORITY_CLASS))
                .maxUnavailable((String) v.get(OperatorSetting.MAX_UNAVAILABLE))
                .ports((Integer) v.get(OperatorSetting.AGENT_METRICS_PORT), (Integer)
                        v.get(OperatorSetting.AGENT_HEALTH_PORT))
                .network((PodNetwork) v.get(OperatorSetting.AGENT_NETWORK))
                .hostPaths(new AgentHostPaths(
                        (String) v.get(OperatorSetting.HOST_SYS),
                        (String) v.get(OperatorSetting.HOST_CGROUP),
                        (String) v.get(OperatorSetting.HOST_STATE_DIR),
                        (Optional<String>) v.get(OperatorSetting.KUBELET_ROOT_DIR),
                        (Optional<String>) v.get(OperatorSetting.KUBELET_CONFIG_FILE),
                        (String) v.get(OperatorSetting.AGENT_POD_RESOURCES_SOCKET),
                        (String) v.get(OperatorSetting.AGENT_NRI_SOCKET)))
                .pinning((AgentPinning) v.get(OperatorSetting.AGENT_PINNING))
                .nriPluginIndex((String) v.get(OperatorSetting.AGENT_NRI_PLUGIN_INDEX))
                .cpusetPartitions((Boolean) v.get(OperatorSetting.AGENT_CPUSET_PARTITIONS))
                .logLevel((LogLevel) v.get(OperatorSetting.AGENT_LOG_LEVEL))
                .logFormat((LogFormat) v.get(OperatorSetting.AGENT_LOG_FORMAT))
                .reconcilePeriod((Optional<Duration>) v.get(OperatorSetting.AGENT_RECONCILE_PERIOD))
                .tolerations((List<AgentToleration>) v.get(OperatorSetting.AGENT_TOLERATIONS))
                .nodeSelector((Map<String, String>) v.get(OperatorSetting.AGENT_NODE_SELECTOR))
                .podLabels((Map<String, String>) v.get(OperatorSetting.AGENT_POD_LABELS))
                .podAnnotations((Map<String, String>) v.get(OperatorSetting.AGENT_POD_ANNOTATIONS))
                .extras(new AgentExtras(
                        (List<AgentExtras.Env>) v.get(OperatorSetting.AGENT_EXTRA_ENV),
                        (List<String>) v.get(OperatorSetting.AGENT_EXTRA_ARGS),
                        Optional.of((Affinity) v.get(OperatorSetting.AGENT_AFFINITY))
                                .filter(a -> a.getNodeAffinity() != null
                                        || a.getPodAffinity() != null
                                        || a.getPodAntiAffinity() != null)))
                .serviceMonitor(
                        (Boolean) v.get(OperatorSetting.AGENT_SERVICE_MONITOR)
                                ? Optional.of(new AgentServiceMonitor(
                                        (Map<String, String>) v.get(OperatorSetting.SERVICE_MONITOR_LABELS)))
                                : Optional.empty())
                .resources(
                        resources(
                                v,
                                Map.of(
                                        "cpu", OperatorSetting.AGENT_CPU_REQUEST,
                                        "memory", OperatorSetting.AGENT_MEMORY_REQUEST)),
                        resources(v, Map.of("memory", OperatorSetting.AGENT_MEMORY_LIMIT)));
        if (v.get(OperatorSetting.AGENT_METRICS_SECURITY) == MetricsSecurity.HTTPS) {
            b.secureMetrics(Optional.of(new AgentSecureMetrics(
                    (Optional<String>) v.get(OperatorSetting.AGENT_METRICS_CERT_SECRET),
                    (Optional<Duration>) v.get(OperatorSetting.AGENT_METRICS_AUTH_CACHE_TTL),
                    (Optional<String>) v.get(OperatorSetting.AGENT_METRICS_SCRAPE_TOKEN_SECRET))));
        }
        ((Optional<ApiServerEndpoint>) v.get(OperatorSetting.API_SERVER)).ifPresent(b::apiServer);
        AgentRollout rollout = b.build();
        String namespace = (String) v.get(OperatorSetting.NAMESPACE);
        boolean elect = (Boolean) v.get(OperatorSetting.LEADER_ELECTION);
        return new OperatorSettings(
                rollout,
                (Duration) v.get(OperatorSetting.RESTORE_TIMEOUT),
                (Duration) v.get(OperatorSetting.ERROR_WINDOW),
                elect ? Optional.of((String) v.get(OperatorSetting.LEASE_NAME)) : Optional.empty(),
                ((Optional<String>) v.get(OperatorSetting.LEASE_NAMESPACE)).orElse(namespace),
                new LeaseTimings(
                        (Duration) v.get(OperatorSetting.LEASE_DURATION),
                        (Duration) v.get(OperatorSetting.RENEW_DEADLINE),
                        (Duration) v.get(OperatorSetting.RETRY_PERIOD)),
                (LogLevel) v.get(OperatorSetting.LOG_LEVEL),
                (LogFormat) v.get(OperatorSetting.LOG_FORMAT),
                (Integer) v.get(OperatorSetting.HEALTH_PORT),
                (Integer) v.get(OperatorSetting.METRICS_PORT),
                (MetricsSecurity) v.get(OperatorSetting.METRICS_SECURITY),
                new SecureMetricsSettings(
                        ((Optional<String>) v.get(OperatorSetting.METRICS_CERT_FILE)).map(Path::of),
                        ((Optional<String>) v.get(OperatorSetting.METRICS_KEY_FILE)).map(Path::of),
                        (Duration) v.get(OperatorSetting.METRICS_AUTH_CACHE_TTL)));
    }

    /** The file's keys with their YAML values, each read by its setting's type; an unknown key is a problem. */
    private static Map<String, JsonNode> fileValues(String yaml, String fileName, List<String> problems) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        if (yaml.isBlank()) {
            return out;
        }
        JsonNode root;
        try {
            root = YAML.readTree(yaml);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null
                    ? ""
                    : " (line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr() + ")";
            problems.add(fileName + ": not valid YAML: " + YamlProblems.oneLine(e.getOriginalMessage()) + where);
            return out;
        } catch (IOException | RuntimeException e) {
            // SnakeYAML reports some malformed input unchecked.
            problems.add(fileName + ": not valid YAML: " + YamlProblems.oneLine(e.getMessage()));
            return out;
        }
        if (root == null || root.isNull() || root.isMissingNode()) {
            return out;
        }
        if (!root.isObject()) {
            problems.add(fileName + ": allowed a map of settings (key: value), found "
                    + (root.isArray() ? "a list" : "the value " + root));
            return out;
        }
        List<String> known = Arrays.stream(OperatorSetting.values())
                .map(OperatorSetting::key)
                .toList();
        Iterator<Map.Entry<String, JsonNode>> fields = root.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            if (!known.contains(f.getKey())) {
                problems.add(fileName + ": unknown key " + f.getKey() + ": allowed " + String.join(", ", known));
            } else {
                out.put(f.getKey(), f.getValue());
            }
        }
        return out;
    }
}
