package io.podnuma.agent.config;

import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The node agent's validated configuration (see {@link AgentConfigLoader} for the sources and their order).
 *
 * @param podResourcesSocketMode POSIX permission bits, e.g. {@code 0600}
 * @param policy the rendered {@code NumaResourcePolicy} spec, as written
 * @param nodeConfig the engine configuration the policy maps to
 * @param budgetAnnotation the pod budget annotation key, empty when pod-level resources are off or not set
 * @param policyHash identifies the policy ({@code sha256:<hex>} of its canonical JSON): stored with the
 *     checkpoint so a policy change under running pods is noticed
 */
public record AgentConfig(
        String nodeName,
        Path sysfsRoot,
        Path cgroupRoot,
        Path stateDir,
        Path podResourcesSocket,
        int podResourcesSocketMode,
        Optional<Path> kubeletPodResourcesSocket,
        int metricsPort,
        int healthPort,
        LogLevel logLevel,
        Duration reconcilePeriod,
        Optional<Path> kubeletStateDir,
        NumaResourcePolicySpec policy,
        NodeConfig nodeConfig,
        Optional<String> budgetAnnotation,
        String policyHash) {

    public AgentConfig {
        Objects.requireNonNull(nodeName, "nodeName");
        Objects.requireNonNull(sysfsRoot, "sysfsRoot");
        Objects.requireNonNull(cgroupRoot, "cgroupRoot");
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(podResourcesSocket, "podResourcesSocket");
        Objects.requireNonNull(kubeletPodResourcesSocket, "kubeletPodResourcesSocket");
        Objects.requireNonNull(logLevel, "logLevel");
        Objects.requireNonNull(reconcilePeriod, "reconcilePeriod");
        Objects.requireNonNull(kubeletStateDir, "kubeletStateDir");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(nodeConfig, "nodeConfig");
        Objects.requireNonNull(budgetAnnotation, "budgetAnnotation");
        Objects.requireNonNull(policyHash, "policyHash");
    }
}
