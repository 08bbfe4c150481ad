package io.podnuma.operator.render;

import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * How the operator runs a policy's agents: the operator's settings that are not in the policy. One value for every
 * policy; {@link #defaults(String)} is what a production cluster gets, the withers what a chart value or a test changes.
 *
 * @param namespace where the ConfigMap, DaemonSet and Service live (the operator's namespace)
 * @param image the agent image reference
 * @param serviceAccountName the agent's own ServiceAccount (the chart makes it with the agent's ClusterRole)
 * @param priorityClassName empty: none
 * @param maxUnavailable the DaemonSet's rolling-update budget: a percentage ({@code "10%"}) or a count ({@code "3"})
 * @param requests the agent container's requests (empty: none, the pod is then BestEffort unless limits are set)
 * @param limits the agent container's limits
 * @param reconcilePeriod empty: the agent's default
 * @param statusMinInterval empty: the agent's default
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
        Map<String, Quantity> requests,
        Map<String, Quantity> limits,
        Optional<Duration> reconcilePeriod,
        Optional<Duration> statusMinInterval,
        LogLevel logLevel) {

    private static final Pattern MAX_UNAVAILABLE = Pattern.compile("([1-9][0-9]*|[1-9][0-9]?%|100%)");

    /** The agent's log levels, as its config file spells them. */
    public enum LogLevel {
        TRACE,
        DEBUG,
        INFO,
        WARN,
        ERROR;

        String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public AgentRollout {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(image, "image");
        Objects.requireNonNull(pullPolicy, "pullPolicy");
        Objects.requireNonNull(serviceAccountName, "serviceAccountName");
        Objects.requireNonNull(network, "network");
        Objects.requireNonNull(hostPaths, "hostPaths");
        Objects.requireNonNull(logLevel, "logLevel");
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
        requests = Map.copyOf(new TreeMap<>(requests));
        limits = Map.copyOf(new TreeMap<>(limits));
    }

    /**
     * Production defaults: namespace {@code podnuma-system}, the agent on the host network with the ports of its
     * config file's defaults, 10% of the nodes at a time, system-node-critical, 50m CPU and 160Mi requested, 256Mi
     * limit.
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
                Map.of("cpu", new Quantity("50m"), "memory", new Quantity("160Mi")),
                Map.of("memory", new Quantity("256Mi")),
                Optional.empty(),
                Optional.empty(),
                LogLevel.INFO);
    }

    public AgentRollout withNamespace(String ns) {
        return new AgentRollout(
                ns,
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
                requests,
                limits,
                reconcilePeriod,
                statusMinInterval,
                logLevel);
    }

    public AgentRollout withPullPolicy(PullPolicy policy) {
        return new AgentRollout(
                namespace,
                image,
                policy,
                serviceAccountName,
                priorityClassName,
                maxUnavailable,
                metricsPort,
                healthPort,
                network,
                apiServer,
                hostPaths,
                requests,
                limits,
                reconcilePeriod,
                statusMinInterval,
                logLevel);
    }

    public AgentRollout withPorts(int metrics, int health) {
        return new AgentRollout(
                namespace,
                image,
                pullPolicy,
                serviceAccountName,
                priorityClassName,
                maxUnavailable,
                metrics,
                health,
                network,
                apiServer,
                hostPaths,
                requests,
                limits,
                reconcilePeriod,
                statusMinInterval,
                logLevel);
    }

    public AgentRollout withApiServer(ApiServerEndpoint endpoint) {
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
                Optional.of(endpoint),
                hostPaths,
                requests,
                limits,
                reconcilePeriod,
                statusMinInterval,
                logLevel);
    }

    public AgentRollout withHostPaths(AgentHostPaths paths) {
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
                paths,
                requests,
                limits,
                reconcilePeriod,
                statusMinInterval,
                logLevel);
    }

    public AgentRollout withResources(Map<String, Quantity> newRequests, Map<String, Quantity> newLimits) {
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
                newRequests,
                newLimits,
                reconcilePeriod,
                statusMinInterval,
                logLevel);
    }

    public AgentRollout withPeriods(Duration reconcile, Duration statusMin) {
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
                requests,
                limits,
                Optional.of(reconcile),
                Optional.of(statusMin),
                logLevel);
    }

    public AgentRollout withMaxUnavailable(String budget) {
        return new AgentRollout(
                namespace,
                image,
                pullPolicy,
                serviceAccountName,
                priorityClassName,
                budget,
                metricsPort,
                healthPort,
                network,
                apiServer,
                hostPaths,
                requests,
                limits,
                reconcilePeriod,
                statusMinInterval,
                logLevel);
    }

    private static void requirePort(String name, int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(name + " " + port + ": allowed 1..65535");
        }
    }
}
