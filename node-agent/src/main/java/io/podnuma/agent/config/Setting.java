package io.podnuma.agent.config;

import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.crds.agent.v1alpha1.LogLevel;
import io.podnuma.crds.settings.Durations;
import io.podnuma.crds.settings.SettingDefinition;
import io.podnuma.crds.settings.SettingType;
import io.podnuma.crds.settings.SettingValues;
import io.podnuma.logging.LogFormat;
import io.podnuma.securemetrics.MetricsSecurity;
import io.podnuma.securemetrics.SecureMetricsSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * One agent setting that can come from the file, an environment variable or a flag, each a single value. The policy
 * is not here: it is structured and comes from the file only.
 */
public enum Setting implements SettingDefinition {
    NODE_NAME(
            "nodeName",
            null,
            "the Kubernetes node this agent runs on; in a DaemonSet, the downward API's spec.nodeName",
            Setting::nodeName),
    SYSFS_ROOT("sysfsRoot", "/sys", "where the host's sysfs is mounted", Setting::absolutePath),
    CGROUP_ROOT("cgroupRoot", "/sys/fs/cgroup", "where the host's cgroup hierarchy is mounted", Setting::absolutePath),
    STATE_DIR(
            "stateDir",
            "/var/lib/podnuma",
            "directory of the checkpoint (a hostPath that survives restarts)",
            Setting::absolutePath),
    POD_RESOURCES_SOCKET(
            "podResourcesSocket",
            "/var/lib/podnuma/pod-resources/podnuma.sock",
            "unix socket of podnuma's PodResources gRPC server",
            Setting::absolutePath),
    POD_RESOURCES_SOCKET_MODE(
            "podResourcesSocketMode",
            "0600",
            "file mode of that socket, octal; it tells every pod's CPUs and memory, so it may not be world-writable",
            Setting::socketMode),
    KUBELET_POD_RESOURCES_SOCKET(
            "kubeletPodResourcesSocket",
            "",
            "the kubelet's PodResources socket whose device assignments are merged in; empty: none",
            Setting::optionalAbsolutePath),
    METRICS_PORT("metricsPort", "9464", "TCP port of /metrics", SettingValues::port),
    HEALTH_PORT("healthPort", "8081", "TCP port of /healthz, /startupz and /readyz", SettingValues::port),
    LOG_LEVEL(
            "logLevel",
            "info",
            "the least severe records written, for every logger of the process: trace, debug, info, warn or error",
            LogLevel::parse),
    LOG_FORMAT(
            "logFormat",
            "text",
            "how records are written to stderr: text (a line each: ISO-8601 UTC time, thread, level, logger,"
                    + " message) or json (an object a line: time, level, logger, thread, message, exception)",
            LogFormat::parse),
    RECONCILE_PERIOD(
            "reconcilePeriod",
            "10s",
            "how often actual cpusets are compared with the wanted ones",
            Setting::reconcilePeriod),
    KUBELET_CHECK_SOCKET(
            "kubeletCheckSocket",
            "",
            "the kubelet's PodResources socket (<root-dir>/pod-resources/kubelet.sock) the coexistence check asks"
                    + " for its CPU and memory manager policies; empty: not asked",
            Setting::optionalAbsolutePath),
    KUBELET_CONFIG_FILE(
            "kubeletConfigFile",
            "",
            "the kubelet's KubeletConfiguration file (its --config) if mounted, read by the coexistence check;"
                    + " empty: none",
            Setting::optionalAbsolutePath),
    METRICS_BIND_ADDRESS(
            "metricsBindAddress",
            "0.0.0.0",
            "address /metrics listens on: an IPv4 or IPv6 literal or a host name",
            BindAddress::parse),
    HEALTH_BIND_ADDRESS(
            "healthBindAddress",
            "0.0.0.0",
            "address /healthz, /startupz and /readyz listen on: an IPv4 or IPv6 literal or a host name",
            BindAddress::parse),
    POD_RESOURCES_QPS(
            "podResourcesQps",
            "100",
            "PodResources calls per second allowed on average (the kubelet's limit); more are refused with"
                    + " RESOURCE_EXHAUSTED",
            Setting::qps),
    POD_RESOURCES_BURST(
            "podResourcesBurst",
            "10",
            "PodResources calls allowed at once above the average rate (the kubelet's burst)",
            Setting::burst),
    KUBELET_CALL_TIMEOUT(
            "kubeletCallTimeout",
            "10s",
            "timeout of each call to the kubelet's own PodResources socket",
            Setting::kubeletCallTimeout),
    CGROUP_DRIVER(
            "cgroupDriver",
            "auto",
            "how the kubelet names pod cgroups: cgroupfs, systemd, or auto (found from the kubepods directory)",
            Setting::cgroupDriver),
    EXCLUSIVE_CPU_QUOTA(
            "exclusiveCpuQuota",
            "keep",
            "keep or disable the CFS quota of containers with exclusive CPUs (disable: they are not throttled on"
                    + " their own CPUs)",
            ExclusiveCpuQuota::parse),
    PINNING(
            "pinning",
            "auto",
            "how containers are pinned: nri (born pinned: the runtime asks the agent at creation), cgroup (pinned"
                    + " just after creation by writing the container's cgroup) or auto (nri while the runtime's NRI"
                    + " socket answers, else cgroup); the cgroup writer always repairs drift",
            PinningMode::parse),
    NRI_SOCKET(
            "nriSocket",
            "/var/run/nri/nri.sock",
            "the container runtime's NRI socket (unless pinning is cgroup)",
            Setting::absolutePath),
    NRI_PLUGIN_NAME(
            "nriPluginName",
            "podnuma",
            "the name the agent registers with the runtime as an NRI plugin",
            Setting::nriPluginName),
    NRI_PLUGIN_INDEX(
            "nriPluginIndex",
            "40",
            "the agent's NRI plugin index, two digits: the runtime calls plugins in ascending order",
            Setting::nriPluginIndex),
    STATUS_MIN_INTERVAL(
            "statusMinInterval",
            "2s",
            "the least time between two writes of the node's NumaNodeState (and NodeResourceTopology)",
            Setting::statusMinInterval),
    KUBELET_CGROUP_ROOT(
            "kubeletCgroupRoot",
            "/",
            "the kubelet's --cgroup-root: the cgroup under which kubepods sits, the same in every hierarchy",
            Setting::cgroupParent),
    POLICY_NAME(
            "policyName",
            "",
            "the NumaResourcePolicy this configuration comes from; when the node's podnuma.io/policy label no longer"
                    + " names it at shutdown, the node has left podnuma and every container gets everything back",
            Setting::policyName),
    METRICS_SECURITY(
            "metricsSecurity",
            "http",
            "how /metrics is served: http (anyone who reaches the port may scrape) or https (TLS, and each scrape"
                    + " needs a bearer token whose identity may get /metrics: TokenReview, then SubjectAccessReview)",
            MetricsSecurity::parse),
    METRICS_CERT_FILE(
            "metricsCertFile",
            "",
            "with metricsKeyFile, the PEM certificate /metrics serves over https (e.g. a mounted kubernetes.io/tls"
                    + " Secret's tls.crt, reloaded when it changes); empty: a self-signed one made at start",
            Setting::optionalAbsolutePath),
    METRICS_KEY_FILE(
            "metricsKeyFile",
            "",
            "the PEM private key of metricsCertFile (e.g. the Secret's tls.key); empty: none",
            Setting::optionalAbsolutePath),
    METRICS_AUTH_CACHE_TTL(
            "metricsAuthCacheTtl",
            "1m",
            "over https, how long the answer for one scrape token is reused before the API server is asked again"
                    + " (a rejected token: a sixth of it)",
            Setting::metricsAuthCacheTtl);

    static final Duration MIN_RECONCILE = Duration.ofSeconds(1);
    static final Duration MAX_RECONCILE = Duration.ofHours(1);
    static final Duration MIN_KUBELET_CALL_TIMEOUT = Duration.ofMillis(100);
    static final Duration MAX_KUBELET_CALL_TIMEOUT = Duration.ofMinutes(5);
    static final Duration MIN_STATUS_INTERVAL = Duration.ofMillis(100);
    static final Duration MAX_STATUS_INTERVAL = Duration.ofMinutes(10);
    /** Far above what a node needs; keeps the token bucket's arithmetic exact. */
    static final int MAX_QPS = 1_000_000;

    static final int MAX_BURST = 1_000_000;

    static final String PLUGIN_NAME_RULE =
            "allowed letters, digits, '_', '.', '+' and '-' (the runtime refuses any other name), e.g. podnuma";
    static final String PLUGIN_INDEX_RULE = "allowed exactly two digits 00 to 99, quoted (lower runs first;"
            + " nri-plugins' resource policies use 90), e.g. \"40\"";

    private static final Pattern OCTAL_MODE = Pattern.compile("0?[0-7]{3}");
    private static final Pattern DECIMAL = Pattern.compile("[0-9]{1,9}(\\.[0-9]{1,9})?");

    private final Spec spec;

    Setting(String key, String defaultValue, String description, Function<String, ?> parser) {
        this.spec = new Spec(key, defaultValue, description, new SettingType.Text(parser));
    }

    @Override
    public Spec spec() {
        return spec;
    }

    /** {@code PODNUMA_} and the name: {@code PODNUMA_METRICS_PORT}. */
    @Override
    public String env() {
        return "PODNUMA_" + name();
    }

    private static String nodeName(String v) {
        if (!SettingValues.isDnsSubdomain(v)) {
            throw new IllegalArgumentException("allowed a node name: at most 253 lowercase letters, digits, '-' and"
                    + " '.', starting and ending with a letter or digit");
        }
        return v;
    }

    private static Path absolutePath(String v) {
        return Path.of(SettingValues.absolutePath(v)).normalize();
    }

    private static Path optionalAbsolutePath(String v) {
        return v.isEmpty() ? null : absolutePath(v);
    }

    private static CgroupPath cgroupParent(String v) {
        if (!v.startsWith("/")) {
            throw new IllegalArgumentException("allowed a cgroup path starting with /, e.g. / or /podnuma-tests");
        }
        return CgroupPath.parse(v);
    }

    private static String policyName(String v) {
        return v.isEmpty() ? null : nodeName(v);
    }

    private static String nriPluginName(String v) {
        if (!NriSettings.PLUGIN_NAME.matcher(v).matches()) {
            throw new IllegalArgumentException(PLUGIN_NAME_RULE);
        }
        return v;
    }

    private static String nriPluginIndex(String v) {
        if (!NriSettings.PLUGIN_INDEX.matcher(v).matches()) {
            throw new IllegalArgumentException(PLUGIN_INDEX_RULE);
        }
        return v;
    }

    private static Integer socketMode(String v) {
        if (!OCTAL_MODE.matcher(v).matches()) {
            throw new IllegalArgumentException("allowed an octal file mode such as 0600 or 0660");
        }
        int mode = Integer.parseInt(v, 8);
        if ((mode & 0002) != 0) {
            throw new IllegalArgumentException(
                    "the socket may not be writable by others (any local user could read every pod's assignment);"
                            + " allowed e.g. 0600 or 0660");
        }
        return mode;
    }

    private static Duration reconcilePeriod(String v) {
        return Durations.within(v, MIN_RECONCILE, MAX_RECONCILE);
    }

    private static Duration kubeletCallTimeout(String v) {
        return Durations.within(v, MIN_KUBELET_CALL_TIMEOUT, MAX_KUBELET_CALL_TIMEOUT);
    }

    private static Duration statusMinInterval(String v) {
        return Durations.within(v, MIN_STATUS_INTERVAL, MAX_STATUS_INTERVAL);
    }

    private static Duration metricsAuthCacheTtl(String v) {
        return Durations.within(v, Duration.ZERO, SecureMetricsSettings.MAX_TTL);
    }

    private static Double qps(String v) {
        double q;
        try {
            q = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            q = Double.NaN;
        }
        // The pattern keeps out what parseDouble also reads (0x1p3, Infinity, NaN, 1d).
        if (!DECIMAL.matcher(v).matches() || !(q > 0) || q > MAX_QPS) {
            throw new IllegalArgumentException(
                    "allowed a number of calls per second above 0 and at most " + MAX_QPS + ", e.g. 100 or 0.5");
        }
        return q;
    }

    private static Integer burst(String v) {
        try {
            int b = Integer.parseInt(v);
            if (b >= 1 && b <= MAX_BURST) {
                return b;
            }
        } catch (NumberFormatException e) {
            // falls through to the message below
        }
        throw new IllegalArgumentException("allowed a whole number of calls from 1 to " + MAX_BURST);
    }

    /** {@code auto} is null: the driver is found at start. */
    private static CgroupDriver cgroupDriver(String v) {
        if (v.equals("auto")) {
            return null;
        }
        for (CgroupDriver d : CgroupDriver.values()) {
            if (d.settingName().equals(v)) {
                return d;
            }
        }
        throw new IllegalArgumentException("allowed auto, cgroupfs, systemd");
    }
}
