package io.podnuma.operator.render;

import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.crds.agent.v1alpha1.LogLevel;
import io.podnuma.logging.LogFormat;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * How the operator runs a policy's agents: the operator's settings that are not in the policy. One value for every
 * policy; {@link #defaults(String)} is what a production cluster gets, {@link #toBuilder()} what a chart value or a
 * test changes.
 *
 * @param namespace where the ConfigMap, DaemonSet and Service live (the operator's namespace)
 * @param image the agent image reference
 * @param serviceAccountName the agent's own ServiceAccount (the chart makes it with the agent's ClusterRole)
 * @param priorityClassName empty: none
 * @param maxUnavailable the DaemonSet's rolling-update budget: a percentage ({@code "10%"}) or a count ({@code "3"})
 * @param pinning how the agents pin containers; unless {@link AgentPinning#CGROUP}, the pod mounts the NRI socket's
 *     directory ({@link AgentHostPaths#nriSocket})
 * @param nriPluginIndex the agents' NRI plugin index, two digits {@code 00}..{@code 99}
 * @param requests the agent container's requests (empty: none, the pod is then BestEffort unless limits are set)
 * @param limits the agent container's limits
 * @param reconcilePeriod empty: the agent's default
 * @param logFormat the agents' log lines: text or JSON
 * @param statusMinInterval empty: the agent's default
 * @param tolerations the agent pods' tolerations (by default every taint: an agent runs wherever its policy put a
 *     node)
 * @param nodeSelector extra node-selector terms, ANDed with {@code podnuma.io/policy=<name>}
 * @param podLabels extra labels on the agent pods and on the ConfigMap, DaemonSet and Service
 * @param podAnnotations extra annotations on the agent pods only (the pod template), beside the config hash; e.g. the
 *     toleration annotation of a runtime whose NRI validator requires the agent's plugin of every container
 * @param extras extra environment variables, arguments and an affinity of the agent pods ({@link AgentExtras#NONE}:
 *     none)
 * @param serviceMonitor empty: no ServiceMonitor is rendered (the chart may scrape the pods with a PodMonitor)
 * @param secureMetrics empty: the agents serve {@code /metrics} over plain HTTP; present: over HTTPS, each scrape
 *     with a bearer token allowed to get {@code /metrics}
 * @param cpusetPartitions the agents of a policy with {@code cpuManager.partition} root or isolated get {@code
 *     CAP_SYS_ADMIN}, which the kernel requires to make a cpuset partition below the root; false: no agent gets it
 *     (such a policy falls back, its nodes say why)
 */
public record AgentRollout(
        String namespace,
        String image,
        PullPolicy pullPolicy,
        String serviceAccountName,
        Optional<String> priorityClassName,
        String maxUnavailable,
        int metricsPort,
        int healthPort,
        PodNetwork network,
        Optional<ApiServerEndpoint> apiServer,
        AgentHostPaths hostPaths,
        AgentPinning pinning,
        String nriPluginIndex,
        Map<String, Quantity> requests,
        Map<String, Quantity> limits,
        Optional<Duration> reconcilePeriod,
        Optional<Duration> statusMinInterval,
        LogLevel logLevel,
        LogFormat logFormat,
        List<AgentToleration> tolerations,
        Map<String, String> nodeSelector,
        Map<String, String> podLabels,
        Map<String, String> podAnnotations,
        AgentExtras extras,
        Optional<AgentServiceMonitor> serviceMonitor,
        Optional<AgentSecureMetrics> secureMetrics,
        boolean cpusetPartitions) {

    /** The agent's own bounds for its reconcile period. */
    public static final Duration MIN_RECONCILE_PERIOD = Duration.ofSeconds(1);

    public static final Duration MAX_RECONCILE_PERIOD = Duration.ofHours(1);

    /** The agent's default: ahead of nri-plugins' resource policies (90), which must not run beside it anyway. */
    public static final String DEFAULT_NRI_PLUGIN_INDEX = "40";

    public static final String NRI_PLUGIN_INDEX_RULE =
            "exactly two digits 00 to 99 (the runtime calls plugins in ascending order), e.g. 40";

    private static final Pattern NRI_PLUGIN_INDEX = Pattern.compile("[0-9]{2}");

    private static final Pattern MAX_UNAVAILABLE = Pattern.compile("([1-9][0-9]*|[1-9][0-9]?%|100%)");

    public AgentRollout {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(image, "image");
        Objects.requireNonNull(pullPolicy, "pullPolicy");
        Objects.requireNonNull(serviceAccountName, "serviceAccountName");
        Objects.requireNonNull(network, "network");
        Objects.requireNonNull(hostPaths, "hostPaths");
        Objects.requireNonNull(pinning, "pinning");
        Objects.requireNonNull(nriPluginIndex, "nriPluginIndex");
        if (!NRI_PLUGIN_INDEX.matcher(nriPluginIndex).matches()) {
            throw new IllegalArgumentException(
                    "nriPluginIndex '" + nriPluginIndex + "': allowed " + NRI_PLUGIN_INDEX_RULE);
        }
        Objects.requireNonNull(logLevel, "logLevel");
        Objects.requireNonNull(logFormat, "logFormat");
        Objects.requireNonNull(reconcilePeriod, "reconcilePeriod");
        Objects.requireNonNull(statusMinInterval, "statusMinInterval");
        Objects.requireNonNull(extras, "extras");
        Objects.requireNonNull(serviceMonitor, "serviceMonitor");
        Objects.requireNonNull(secureMetrics, "secureMetrics");
        if (image.isBlank()) {
            throw new IllegalArgumentException("agent image must not be empty");
        }
        if (!MAX_UNAVAILABLE.matcher(maxUnavailable).matches()) {
            throw new IllegalArgumentException("maxUnavailable '" + maxUnavailable
                    + "': allowed a count of at least 1 (\"3\") or a percentage 1%..100% (\"10%\")");
        }
        requirePort("metricsPort", metricsPort);
        requirePort("healthPort", healthPort);
        if (metricsPort == healthPort) {
            throw new IllegalArgumentException("metricsPort and healthPort are both " + metricsPort);
        }
        reconcilePeriod
                .filter(d -> d.compareTo(MIN_RECONCILE_PERIOD) < 0 || d.compareTo(MAX_RECONCILE_PERIOD) > 0)
                .ifPresent(d -> {
                    throw new IllegalArgumentException("reconcilePeriod " + d.toMillis() + "ms: allowed 1s..1h");
                });
        requests = Map.copyOf(new TreeMap<>(requests));
        limits = Map.copyOf(new TreeMap<>(limits));
        tolerations = List.copyOf(tolerations);
        // Sorted, so that the objects rendered from them are the same byte for byte in every JVM.
        nodeSelector = Collections.unmodifiableMap(new TreeMap<>(nodeSelector));
        podLabels = Collections.unmodifiableMap(new TreeMap<>(podLabels));
        AgentLabels.require("nodeSelector", nodeSelector, AgentLabels.RESERVED_IN_NODE_SELECTOR);
        AgentLabels.require("podLabels", podLabels, AgentLabels.RESERVED);
        podAnnotations = Collections.unmodifiableMap(new TreeMap<>(podAnnotations));
        AgentAnnotations.require("podAnnotations", podAnnotations);
    }

    /**
     * Production defaults: namespace {@code podnuma-system}, the agent on the host network with the ports of its
     * config file's defaults, NRI pinning where the runtime offers it ({@code auto}, index 40), 10% of the nodes at a time, system-node-critical, 50m CPU and 160Mi requested, 256Mi
     * limit, every taint tolerated, a ServiceMonitor without extra labels.
     */
    public static AgentRollout defaults(String image) {
        return new AgentRollout(
                "podnuma-system",
                image,
                PullPolicy.IF_NOT_PRESENT,
                "podnuma-agent",
                Optional.of("system-node-critical"),
                "10%",
                9464,
                8081,
                PodNetwork.HOST,
                Optional.empty(),
                AgentHostPaths.defaults(),
                AgentPinning.AUTO,
                DEFAULT_NRI_PLUGIN_INDEX,
                Map.of("cpu", new Quantity("50m"), "memory", new Quantity("160Mi")),
                Map.of("memory", new Quantity("256Mi")),
                Optional.empty(),
                Optional.empty(),
                LogLevel.INFO,
                LogFormat.TEXT,
                List.of(AgentToleration.EVERY_TAINT),
                Map.of(),
                Map.of(),
                Map.of(),
                AgentExtras.NONE,
                Optional.of(new AgentServiceMonitor(Map.of())),
                Optional.empty(),
                false);
    }

    /** A builder starting from this value: {@code defaults(image).toBuilder().pullPolicy(NEVER).build()}. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Changes some settings of a rollout; every other stays as it was. */
    public static final class Builder {
        private String namespace;
        private String image;
        private PullPolicy pullPolicy;
        private String serviceAccountName;
        private Optional<String> priorityClassName;
        private String maxUnavailable;
        private int metricsPort;
        private int healthPort;
        private PodNetwork network;
        private Optional<ApiServerEndpoint> apiServer;
        private AgentHostPaths hostPaths;
        private AgentPinning pinning;
        private String nriPluginIndex;
        private Map<String, Quantity> requests;
        private Map<String, Quantity> limits;
        private Optional<Duration> reconcilePeriod;
        private Optional<Duration> statusMinInterval;
        private LogLevel logLevel;
        private LogFormat logFormat;
        private List<AgentToleration> tolerations;
        private Map<String, String> nodeSelector;
        private Map<String, String> podLabels;
        private Map<String, String> podAnnotations;
        private AgentExtras extras;
        private Optional<AgentServiceMonitor> serviceMonitor;
        private Optional<AgentSecureMetrics> secureMetrics;
        private boolean cpusetPartitions;

        private Builder(AgentRollout r) {
            namespace = r.namespace;
            image = r.image;
            pullPolicy = r.pullPolicy;
            serviceAccountName = r.serviceAccountName;
            priorityClassName = r.priorityClassName;
            maxUnavailable = r.maxUnavailable;
            metricsPort = r.metricsPort;
            healthPort = r.healthPort;
            network = r.network;
            apiServer = r.apiServer;
            hostPaths = r.hostPaths;
            pinning = r.pinning;
            nriPluginIndex = r.nriPluginIndex;
            requests = r.requests;
            limits = r.limits;
            reconcilePeriod = r.reconcilePeriod;
            statusMinInterval = r.statusMinInterval;
            logLevel = r.logLevel;
            logFormat = r.logFormat;
            tolerations = r.tolerations;
            nodeSelector = r.nodeSelector;
            podLabels = r.podLabels;
            podAnnotations = r.podAnnotations;
            extras = r.extras;
            cpusetPartitions = r.cpusetPartitions;
            serviceMonitor = r.serviceMonitor;
            secureMetrics = r.secureMetrics;
        }

        public Builder namespace(String value) {
            namespace = value;
            return this;
        }

        public Builder pullPolicy(PullPolicy value) {
            pullPolicy = value;
            return this;
        }

        public Builder serviceAccountName(String value) {
            serviceAccountName = value;
            return this;
        }

        public Builder priorityClassName(Optional<String> value) {
            priorityClassName = value;
            return this;
        }

        public Builder maxUnavailable(String value) {
            maxUnavailable = value;
            return this;
        }

        public Builder ports(int metrics, int health) {
            metricsPort = metrics;
            healthPort = health;
            return this;
        }

        public Builder network(PodNetwork value) {
            network = value;
            return this;
        }

        public Builder apiServer(ApiServerEndpoint value) {
            apiServer = Optional.of(value);
            return this;
        }

        public Builder hostPaths(AgentHostPaths value) {
            hostPaths = value;
            return this;
        }

        public Builder pinning(AgentPinning value) {
            pinning = value;
            return this;
        }

        public Builder nriPluginIndex(String value) {
            nriPluginIndex = value;
            return this;
        }

        public Builder resources(Map<String, Quantity> newRequests, Map<String, Quantity> newLimits) {
            requests = newRequests;
            limits = newLimits;
            return this;
        }

        public Builder periods(Duration reconcile, Duration statusMin) {
            reconcilePeriod = Optional.of(reconcile);
            statusMinInterval = Optional.of(statusMin);
            return this;
        }

        /** Empty: the agent's default. */
        public Builder reconcilePeriod(Optional<Duration> value) {
            reconcilePeriod = value;
            return this;
        }

        public Builder logLevel(LogLevel value) {
            logLevel = value;
            return this;
        }

        public Builder logFormat(LogFormat value) {
            logFormat = value;
            return this;
        }

        public Builder tolerations(List<AgentToleration> value) {
            tolerations = value;
            return this;
        }

        public Builder nodeSelector(Map<String, String> value) {
            nodeSelector = value;
            return this;
        }

        public Builder podLabels(Map<String, String> value) {
            podLabels = value;
            return this;
        }

        public Builder podAnnotations(Map<String, String> value) {
            podAnnotations = value;
            return this;
        }

        public Builder serviceMonitor(Optional<AgentServiceMonitor> value) {
            serviceMonitor = value;
            return this;
        }

        public Builder extras(AgentExtras value) {
            extras = value;
            return this;
        }

        /** Whether the agents of policies asking for cpuset partitions get the capability the kernel requires. */
        public Builder cpusetPartitions(boolean value) {
            cpusetPartitions = value;
            return this;
        }

        /** Empty: plain HTTP. */
        public Builder secureMetrics(Optional<AgentSecureMetrics> value) {
            secureMetrics = value;
            return this;
        }

        /** The rollout; refuses a bad value with the setting's name and what is allowed. */
        public AgentRollout build() {
            return new AgentRollout(
                    namespace,
                    image,
                    pullPolicy,
                    serviceAccountName,
                    priorityClassName,
                    maxUnavailable,
                    metricsPort,
                    healthPort,
                    network,
                    apiServer,
                    hostPaths,
                    pinning,
                    nriPluginIndex,
                    requests,
                    limits,
                    reconcilePeriod,
                    statusMinInterval,
                    logLevel,
                    logFormat,
                    tolerations,
                    nodeSelector,
                    podLabels,
                    podAnnotations,
                    extras,
                    serviceMonitor,
                    secureMetrics,
                    cpusetPartitions);
        }
    }

    private static void requirePort(String name, int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(name + " " + port + ": allowed 1..65535");
        }
    }
}
