package io.podnuma.agent.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * One agent setting that can come from the file, an environment variable or a flag. The policy is not here:
 * it is structured and comes from the file only.
 */
public enum Setting {
    NODE_NAME(
            "nodeName",
            null,
            "the Kubernetes node this agent runs on (DaemonSet: the downward API's spec.nodeName)",
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
    METRICS_PORT("metricsPort", "9464", "TCP port of /metrics", Setting::port),
    HEALTH_PORT("healthPort", "8081", "TCP port of /healthz and /readyz", Setting::port),
    LOG_LEVEL("logLevel", "info", "trace, debug, info, warn or error", LogLevel::parse),
    RECONCILE_PERIOD(
            "reconcilePeriod",
            "10s",
            "how often actual cpusets are compared with the wanted ones",
            Setting::reconcilePeriod),
    KUBELET_STATE_DIR(
            "kubeletStateDir",
            "",
            "the kubelet's root directory (cpu_manager_state, memory_manager_state) if mounted; empty: none",
            Setting::optionalAbsolutePath);

    static final Duration MIN_RECONCILE = Duration.ofSeconds(1);
    static final Duration MAX_RECONCILE = Duration.ofHours(1);

    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern OCTAL_MODE = Pattern.compile("0?[0-7]{3}");

    private final String key;
    private final String defaultValue;
    private final String description;
    private final Function<String, ?> parser;

    Setting(String key, String defaultValue, String description, Function<String, ?> parser) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.description = description;
        this.parser = parser;
    }

    /** The key in the YAML file, e.g. {@code metricsPort}. */
    public String key() {
        return key;
    }

    /** The long flag without dashes, e.g. {@code metrics-port}. */
    public String flag() {
        return key.replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
    }

    /** The environment variable, e.g. {@code PODNUMA_METRICS_PORT}. */
    public String env() {
        return "PODNUMA_" + name();
    }

    /** The value used when no source sets it; null: required. */
    public String defaultValue() {
        return defaultValue;
    }

    public String description() {
        return description;
    }

    /** @throws IllegalArgumentException saying what is allowed */
    Object parse(String value) {
        return parser.apply(value);
    }

    private static String nodeName(String v) {
        if (v.length() > 253 || !DNS_SUBDOMAIN.matcher(v).matches()) {
            throw new IllegalArgumentException("allowed a node name: at most 253 lowercase letters, digits, '-' and"
                    + " '.', starting and ending with a letter or digit");
        }
        return v;
    }

    private static Path absolutePath(String v) {
        if (v.isEmpty() || !v.startsWith("/") || v.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("allowed an absolute path (starting with /)");
        }
        return Path.of(v).normalize();
    }

    private static Path optionalAbsolutePath(String v) {
        return v.isEmpty() ? null : absolutePath(v);
    }

    private static Integer port(String v) {
        try {
            int p = Integer.parseInt(v);
            if (p >= 1 && p <= 65535) {
                return p;
            }
        } catch (NumberFormatException e) {
            // falls through to the message below
        }
        throw new IllegalArgumentException("allowed a TCP port 1..65535");
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
        Duration d = Durations.parse(v);
        if (d.compareTo(MIN_RECONCILE) < 0 || d.compareTo(MAX_RECONCILE) > 0) {
            throw new IllegalArgumentException(
                    "allowed " + Durations.format(MIN_RECONCILE) + " to " + Durations.format(MAX_RECONCILE));
        }
        return d;
    }
}
