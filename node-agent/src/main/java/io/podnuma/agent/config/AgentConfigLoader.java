package io.podnuma.agent.config;

import com.fasterxml.jackson.databind.node.TextNode;
import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.policy.NodeConfigMapper;
import io.podnuma.crds.agent.v1alpha1.LogLevel;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfig;
import io.podnuma.crds.settings.SettingSources;
import io.podnuma.crds.settings.SettingsFile;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.PolicyHash;
import io.podnuma.crds.v1alpha1.policy.validation.PolicyValidator;
import io.podnuma.logging.LogFormat;
import io.podnuma.securemetrics.MetricsSecurity;
import io.podnuma.securemetrics.SecureMetricsSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads and validates the agent configuration.
 *
 * <p>Each {@link Setting} takes the first value found in: a command-line flag ({@code --metrics-port}), an
 * environment variable ({@code PODNUMA_METRICS_PORT}), the YAML file ({@code metricsPort}, read into a
 * {@link NodeAgentConfig} by {@link AgentConfigFile}), its default. The file is {@code --config}, else
 * {@code $PODNUMA_CONFIG}, else {@value #DEFAULT_FILE}. The policy comes from the file only. Unknown keys and
 * flags are errors; unknown environment variables are not, because Kubernetes injects
 * {@code <SERVICE>_SERVICE_HOST}-style variables the agent does not control.
 */
public final class AgentConfigLoader {

    public static final String API_VERSION = NodeAgentConfig.API_VERSION;
    public static final String KIND = NodeAgentConfig.KIND;
    public static final String CONFIG_FLAG = "config";
    public static final String CONFIG_ENV = "PODNUMA_CONFIG";
    public static final String DEFAULT_FILE = "/etc/podnuma/agent.yaml";

    /** Far above a real file (a few KiB). */
    static final SettingsFile FILE =
            new SettingsFile(CONFIG_FLAG, CONFIG_ENV, 1024 * 1024, "configuration file", "an agent configuration");

    private AgentConfigLoader() {}

    /**
     * @param flags long flag names without dashes ({@code metrics-port}, {@code config}) to values
     * @param env the process environment
     */
    public static AgentConfig load(Map<String, String> flags, Map<String, String> env) {
        String file = FILE.name(flags, env, DEFAULT_FILE);
        return parse(FILE.read(file, AgentConfigException::new), file, flags, env);
    }

    /**
     * {@link #load} on a file's text; {@code fileName} only names it in messages. The text is read into a
     * {@link NodeAgentConfig} (the file form), then each setting is taken from a flag, the environment, that config
     * or its default, and the whole is checked.
     */
    public static AgentConfig parse(String yaml, String fileName, Map<String, String> flags, Map<String, String> env) {
        List<String> problems = new ArrayList<>(SettingSources.unknownFlags(Setting.class, CONFIG_FLAG, flags));
        Set<Setting> overridden = EnumSet.noneOf(Setting.class);
        for (Setting s : Setting.values()) {
            if (flags.containsKey(s.flag()) || env.containsKey(s.env())) {
                overridden.add(s);
            }
        }
        AgentConfigFile.Read file = AgentConfigFile.read(yaml, fileName, overridden);
        problems.addAll(file.headerProblems());
        SettingSources.Resolved<Setting> resolved =
                SettingSources.resolve(Setting.class, flags, env, fileName, s -> fileEntry(s, file), problems);
        Map<Setting, Object> values = resolved.values();
        Set<Setting> unreadable = resolved.unreadable();
        crossCheck(values, unreadable, problems);
        problems.addAll(file.policyProblems());
        NumaResourcePolicySpec policy = file.config().policy();
        NodeConfigMapper.Mapped mapped = null;
        List<String> policyProblems =
                policy == null ? List.of() : PolicyValidator.validate(policy, "policy", file.policyUnreadable());
        policyProblems.forEach(p -> problems.add(fileName + ": " + p));
        if (policy != null && policyProblems.isEmpty() && file.policyProblems().isEmpty()) {
            try {
                mapped = NodeConfigMapper.map(policy);
            } catch (IllegalArgumentException e) {
                String m = e.getMessage();
                problems.add(fileName + ": " + (m.startsWith("spec.") ? "policy." + m.substring(5) : "policy: " + m));
            }
        }
        if (!problems.isEmpty()) {
            throw new AgentConfigException(problems);
        }
        return new AgentConfig(
                (String) values.get(Setting.NODE_NAME),
                (Path) values.get(Setting.SYSFS_ROOT),
                (Path) values.get(Setting.CGROUP_ROOT),
                (Path) values.get(Setting.STATE_DIR),
                (Path) values.get(Setting.POD_RESOURCES_SOCKET),
                (Integer) values.get(Setting.POD_RESOURCES_SOCKET_MODE),
                Optional.ofNullable((Path) values.get(Setting.KUBELET_POD_RESOURCES_SOCKET)),
                (Integer) values.get(Setting.METRICS_PORT),
                (Integer) values.get(Setting.HEALTH_PORT),
                (LogLevel) values.get(Setting.LOG_LEVEL),
                (LogFormat) values.get(Setting.LOG_FORMAT),
                (Duration) values.get(Setting.RECONCILE_PERIOD),
                Optional.ofNullable((Path) values.get(Setting.KUBELET_CHECK_SOCKET)),
                Optional.ofNullable((Path) values.get(Setting.KUBELET_CONFIG_FILE)),
                (String) values.get(Setting.METRICS_BIND_ADDRESS),
                (String) values.get(Setting.HEALTH_BIND_ADDRESS),
                (Double) values.get(Setting.POD_RESOURCES_QPS),
                (Integer) values.get(Setting.POD_RESOURCES_BURST),
                (Duration) values.get(Setting.KUBELET_CALL_TIMEOUT),
                Optional.ofNullable((CgroupDriver) values.get(Setting.CGROUP_DRIVER)),
                (ExclusiveCpuQuota) values.get(Setting.EXCLUSIVE_CPU_QUOTA),
                (PinningMode) values.get(Setting.PINNING),
                new NriSettings(
                        (Path) values.get(Setting.NRI_SOCKET), (String) values.get(Setting.NRI_PLUGIN_NAME), (String)
                                values.get(Setting.NRI_PLUGIN_INDEX)),
                (Duration) values.get(Setting.STATUS_MIN_INTERVAL),
                (CgroupPath) values.get(Setting.KUBELET_CGROUP_ROOT),
                Optional.ofNullable((String) values.get(Setting.POLICY_NAME)),
                (MetricsSecurity) values.get(Setting.METRICS_SECURITY),
                new SecureMetricsSettings(
                        Optional.ofNullable((Path) values.get(Setting.METRICS_CERT_FILE)),
                        Optional.ofNullable((Path) values.get(Setting.METRICS_KEY_FILE)),
                        (Duration) values.get(Setting.METRICS_AUTH_CACHE_TTL)),
                policy,
                mapped.config(),
                Optional.ofNullable(mapped.budgetAnnotation()),
                policyHash(policy));
    }

    /** {@code sha256:<hex>} of the policy's canonical JSON ({@link PolicyHash}). */
    public static String policyHash(NumaResourcePolicySpec policy) {
        return PolicyHash.of(policy);
    }

    /** What the file holds for {@code s}: a problem its reader found, its value, or nothing. */
    private static Optional<SettingSources.FileEntry> fileEntry(Setting s, AgentConfigFile.Read file) {
        String problem = file.settingProblems().get(s);
        if (problem != null) {
            return Optional.of(new SettingSources.FileEntry.Problem(problem));
        }
        return Optional.ofNullable(fileValue(s, file.config()))
                .map(v -> new SettingSources.FileEntry.Value(TextNode.valueOf(v)));
    }

    /** The file's value of a setting as text, null when the file does not set it. */
    private static String fileValue(Setting s, NodeAgentConfig c) {
        Object v = switch (s) {
            case NODE_NAME -> c.nodeName();
            case SYSFS_ROOT -> c.sysfsRoot();
            case CGROUP_ROOT -> c.cgroupRoot();
            case STATE_DIR -> c.stateDir();
            case POD_RESOURCES_SOCKET -> c.podResourcesSocket();
            case POD_RESOURCES_SOCKET_MODE -> c.podResourcesSocketMode();
            case KUBELET_POD_RESOURCES_SOCKET -> c.kubeletPodResourcesSocket();
            case METRICS_PORT -> c.metricsPort();
            case HEALTH_PORT -> c.healthPort();
            case LOG_LEVEL -> c.logLevel();
            case LOG_FORMAT -> c.logFormat();
            case RECONCILE_PERIOD -> c.reconcilePeriod();
            case KUBELET_CHECK_SOCKET -> c.kubeletCheckSocket();
            case KUBELET_CONFIG_FILE -> c.kubeletConfigFile();
            case METRICS_BIND_ADDRESS -> c.metricsBindAddress();
            case HEALTH_BIND_ADDRESS -> c.healthBindAddress();
            case POD_RESOURCES_QPS ->
                c.podResourcesQps() == null ? null : c.podResourcesQps().toPlainString();
            case POD_RESOURCES_BURST -> c.podResourcesBurst();
            case KUBELET_CALL_TIMEOUT -> c.kubeletCallTimeout();
            case CGROUP_DRIVER -> c.cgroupDriver();
            case EXCLUSIVE_CPU_QUOTA -> c.exclusiveCpuQuota();
            case PINNING -> c.pinning();
            case NRI_SOCKET -> c.nriSocket();
            case NRI_PLUGIN_NAME -> c.nriPluginName();
            case NRI_PLUGIN_INDEX -> c.nriPluginIndex();
            case STATUS_MIN_INTERVAL -> c.statusMinInterval();
            case KUBELET_CGROUP_ROOT -> c.kubeletCgroupRoot();
            case POLICY_NAME -> c.policyName();
            case METRICS_SECURITY -> c.metricsSecurity();
            case METRICS_CERT_FILE -> c.metricsCertFile();
            case METRICS_KEY_FILE -> c.metricsKeyFile();
            case METRICS_AUTH_CACHE_TTL -> c.metricsAuthCacheTtl();
        };
        return v == null ? null : v.toString();
    }

    /**
     * The certificate and its key go together, and only with https: a pair set for plain http would look secured
     * while anyone may scrape. Checked only when the settings involved could be read.
     */
    private static Optional<String> metricsTlsProblem(Map<Setting, Object> values, Set<Setting> unreadable) {
        if (unreadable.contains(Setting.METRICS_CERT_FILE) || unreadable.contains(Setting.METRICS_KEY_FILE)) {
            return Optional.empty();
        }
        boolean cert = values.get(Setting.METRICS_CERT_FILE) != null;
        boolean key = values.get(Setting.METRICS_KEY_FILE) != null;
        if (cert != key) {
            return Optional.of((cert
                            ? "metricsCertFile is set without metricsKeyFile"
                            : "metricsKeyFile is set without" + " metricsCertFile")
                    + ": set both (a certificate and its key) or neither (a self-signed certificate made at start)");
        }
        if (cert && values.get(Setting.METRICS_SECURITY) == MetricsSecurity.HTTP) {
            return Optional.of("metricsCertFile and metricsKeyFile are set but metricsSecurity is http: set"
                    + " metricsSecurity: https to serve /metrics over TLS, or remove the certificate files");
        }
        return Optional.empty();
    }

    private static void crossCheck(Map<Setting, Object> values, Set<Setting> unreadable, List<String> problems) {
        Object metrics = values.get(Setting.METRICS_PORT);
        if (metrics != null && metrics.equals(values.get(Setting.HEALTH_PORT))) {
            problems.add("metricsPort and healthPort are both " + metrics + ": they must differ");
        }
        Object ours = values.get(Setting.POD_RESOURCES_SOCKET);
        if (ours != null && ours.equals(values.get(Setting.KUBELET_POD_RESOURCES_SOCKET))) {
            problems.add("podResourcesSocket and kubeletPodResourcesSocket are both " + ours
                    + ": the kubelet's socket must be a different one (the agent would merge its own answers)");
        }
        if (ours != null && ours.equals(values.get(Setting.KUBELET_CHECK_SOCKET))) {
            problems.add("podResourcesSocket and kubeletCheckSocket are both " + ours
                    + ": the kubelet's socket must be a different one (the agent would find its own exclusive CPUs"
                    + " and take them for the kubelet's static policy)");
        }
        metricsTlsProblem(values, unreadable).ifPresent(problems::add);
        Object nri = values.get(Setting.NRI_SOCKET);
        if (ours != null && ours.equals(nri)) {
            problems.add("podResourcesSocket and nriSocket are both " + ours
                    + ": the runtime's NRI socket must be a different one (the agent serves one and dials the other)");
        }
    }
}
