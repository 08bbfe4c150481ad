package io.podnuma.agent.config;

import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.agent.kubelet.KubeletFiles;
import io.podnuma.crds.agent.v1alpha1.LogLevel;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.logging.LogFormat;
import io.podnuma.securemetrics.MetricsSecurity;
import io.podnuma.securemetrics.SecureMetricsSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The node agent's validated configuration (see {@link AgentConfigLoader} for the sources and their order).
 *
 * @param logLevel the threshold of every logger of the process
 * @param logFormat text or JSON lines on stderr
 * @param podResourcesSocketMode POSIX permission bits, e.g. {@code 0600}
 * @param metricsBindAddress an IP literal or host name, checked but not resolved
 * @param podResourcesQps with {@code podResourcesBurst}, the PodResources server's token bucket
 * @param cgroupDriver empty: found at start from the kubepods directory ({@code auto})
 * @param pinning which path pins a container first (NRI at its creation, or its cgroup after)
 * @param nri how the agent meets the runtime as an NRI plugin; not used with {@link PinningMode#CGROUP}
 * @param statusMinInterval the least time between two writes of the node's report objects
 * @param metricsSecurity plain HTTP, or HTTPS with a bearer token checked against the API server
 * @param metricsTls the certificate and decision cache of {@link MetricsSecurity#HTTPS}; unused with HTTP
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
        LogFormat logFormat,
        Duration reconcilePeriod,
        Optional<Path> kubeletCheckSocket,
        Optional<Path> kubeletConfigFile,
        String metricsBindAddress,
        String healthBindAddress,
        double podResourcesQps,
        int podResourcesBurst,
        Duration kubeletCallTimeout,
        Optional<CgroupDriver> cgroupDriver,
        ExclusiveCpuQuota exclusiveCpuQuota,
        PinningMode pinning,
        NriSettings nri,
        Duration statusMinInterval,
        CgroupPath kubeletCgroupRoot,
        Optional<String> policyName,
        MetricsSecurity metricsSecurity,
        SecureMetricsSettings metricsTls,
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
        Objects.requireNonNull(logFormat, "logFormat");
        Objects.requireNonNull(reconcilePeriod, "reconcilePeriod");
        Objects.requireNonNull(kubeletCheckSocket, "kubeletCheckSocket");
        Objects.requireNonNull(kubeletConfigFile, "kubeletConfigFile");
        Objects.requireNonNull(metricsBindAddress, "metricsBindAddress");
        Objects.requireNonNull(healthBindAddress, "healthBindAddress");
        Objects.requireNonNull(kubeletCallTimeout, "kubeletCallTimeout");
        Objects.requireNonNull(cgroupDriver, "cgroupDriver");
        Objects.requireNonNull(exclusiveCpuQuota, "exclusiveCpuQuota");
        Objects.requireNonNull(pinning, "pinning");
        Objects.requireNonNull(nri, "nri");
        Objects.requireNonNull(statusMinInterval, "statusMinInterval");
        Objects.requireNonNull(kubeletCgroupRoot, "kubeletCgroupRoot");
        Objects.requireNonNull(policyName, "policyName");
        Objects.requireNonNull(metricsSecurity, "metricsSecurity");
        Objects.requireNonNull(metricsTls, "metricsTls");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(nodeConfig, "nodeConfig");
        Objects.requireNonNull(budgetAnnotation, "budgetAnnotation");
        Objects.requireNonNull(policyHash, "policyHash");
    }

    /** What the coexistence check asks: the kubelet's PodResources socket and its configuration file, when set. */
    public KubeletFiles kubeletFiles() {
        return new KubeletFiles(kubeletCheckSocket, kubeletConfigFile);
    }
}
