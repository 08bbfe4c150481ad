package io.podnuma.crds.agent.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * The node agent's configuration file, key for key ({@code node-agent/examples/agent.yaml} documents each one). This
 * is the file form: a value is what the file says, checked only when the agent reads it (the agent names the key,
 * the value and what is allowed), and null means the key is not in the file, so the agent takes its flag, its
 * environment variable or its default. Durations are written the Kubernetes way ({@code 500ms}, {@code 10s},
 * {@code 1m30s}); the socket mode is an octal string ({@code "0600"}), because YAML reads an unquoted 0600 as 384.
 *
 * @param apiVersion always {@value #API_VERSION}; null reads as that
 * @param kind always {@value #KIND}; null reads as that
 * @param nodeName the Kubernetes node the agent runs on; required (here, as a flag or in the environment)
 * @param cgroupDriver {@code auto}, {@code cgroupfs} or {@code systemd}
 * @param kubeletCgroupRoot the kubelet's {@code --cgroup-root}, e.g. {@code /}
 * @param exclusiveCpuQuota {@code keep} or {@code disable}
 * @param pinning {@code auto}, {@code nri} or {@code cgroup}: how containers get their CPUs and memory nodes
 * @param nriSocket the runtime's NRI socket as the agent sees it, an absolute path
 * @param nriPluginName the name the agent registers with the runtime, of {@code [a-zA-Z0-9_.+-]}
 * @param nriPluginIndex two digits {@code 00}..{@code 99}, quoted (the runtime calls plugins in ascending order)
 * @param reconcilePeriod a duration, 1s to 1h
 * @param kubeletPodResourcesSocket empty or null: the agent reads none
 * @param kubeletCallTimeout a duration, 100ms to 5m
 * @param kubeletCheckSocket the kubelet's PodResources socket the coexistence check asks; empty or null: none
 * @param kubeletConfigFile empty or null: the agent reads none
 * @param statusMinInterval a duration, 100ms to 10m
 * @param metricsSecurity {@code http} (the default) or {@code https}: TLS, and a bearer token allowed to get
 *     {@code /metrics}
 * @param metricsCertFile with {@code metricsKeyFile}, the PEM pair of {@code /metrics} over https; empty or null: a
 *     self-signed certificate made at start
 * @param metricsKeyFile the PEM private key of {@code metricsCertFile}
 * @param metricsAuthCacheTtl a duration, 0s to 10m: how long a scrape token's decision is reused
 * @param logLevel {@code trace}, {@code debug}, {@code info}, {@code warn} or {@code error}
 * @param logFormat {@code text} (a line of text a record) or {@code json} (a JSON object a line)
 * @param policyName the {@code NumaResourcePolicy} this file was rendered from; empty or null: none
 * @param policy the policy spec in force on the node; required by the agent
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({
    "apiVersion",
    "kind",
    "nodeName",
    "sysfsRoot",
    "cgroupRoot",
    "cgroupDriver",
    "stateDir",
    "kubeletCgroupRoot",
    "exclusiveCpuQuota",
    "pinning",
    "nriSocket",
    "nriPluginName",
    "nriPluginIndex",
    "reconcilePeriod",
    "podResourcesSocket",
    "podResourcesSocketMode",
    "podResourcesQps",
    "podResourcesBurst",
    "kubeletPodResourcesSocket",
    "kubeletCallTimeout",
    "kubeletCheckSocket",
    "kubeletConfigFile",
    "statusMinInterval",
    "metricsBindAddress",
    "metricsPort",
    "metricsSecurity",
    "metricsCertFile",
    "metricsKeyFile",
    "metricsAuthCacheTtl",
    "healthBindAddress",
    "healthPort",
    "logLevel",
    "logFormat",
    "policyName",
    "policy"
})
public record NodeAgentConfig(
        String apiVersion,
        String kind,
        String nodeName,
        String sysfsRoot,
        String cgroupRoot,
        String cgroupDriver,
        String stateDir,
        String kubeletCgroupRoot,
        String exclusiveCpuQuota,
        String pinning,
        String nriSocket,
        String nriPluginName,
        String nriPluginIndex,
        String reconcilePeriod,
        String podResourcesSocket,
        String podResourcesSocketMode,
        BigDecimal podResourcesQps,
        Integer podResourcesBurst,
        String kubeletPodResourcesSocket,
        String kubeletCallTimeout,
        String kubeletCheckSocket,
        String kubeletConfigFile,
        String statusMinInterval,
        String metricsBindAddress,
        Integer metricsPort,
        String metricsSecurity,
        String metricsCertFile,
        String metricsKeyFile,
        String metricsAuthCacheTtl,
        String healthBindAddress,
        Integer healthPort,
        String logLevel,
        String logFormat,
        String policyName,
        NumaResourcePolicySpec policy) {

    public static final String API_VERSION = "podnuma.io/v1alpha1";
    public static final String KIND = "NodeAgentConfig";

    public NodeAgentConfig {
        apiVersion = Objects.requireNonNullElse(apiVersion, API_VERSION);
        kind = Objects.requireNonNullElse(kind, KIND);
    }

    /** A file for {@code nodeName} with {@code policy} and every other key left to the agent's defaults. */
    public static Builder builder(String nodeName, NumaResourcePolicySpec policy) {
        return new Builder().nodeName(nodeName).policy(policy);
    }

    /** An empty file (only apiVersion and kind): what the agent would refuse until node and policy are set. */
    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Sets keys one by one; a key not set stays out of the file. */
    public static final class Builder {
        private String apiVersion;
        private String kind;
        private String nodeName;
        private String sysfsRoot;
        private String cgroupRoot;
        private String cgroupDriver;
        private String stateDir;
        private String kubeletCgroupRoot;
        private String exclusiveCpuQuota;
        private String pinning;
        private String nriSocket;
        private String nriPluginName;
        private String nriPluginIndex;
        private String reconcilePeriod;
        private String podResourcesSocket;
        private String podResourcesSocketMode;
        private BigDecimal podResourcesQps;
        private Integer podResourcesBurst;
        private String kubeletPodResourcesSocket;
        private String kubeletCallTimeout;
        private String kubeletCheckSocket;
        private String kubeletConfigFile;
        private String statusMinInterval;
        private String metricsBindAddress;
        private Integer metricsPort;
        private String metricsSecurity;
        private String metricsCertFile;
        private String metricsKeyFile;
        private String metricsAuthCacheTtl;
        private String healthBindAddress;
        private Integer healthPort;
        private String logLevel;
        private String logFormat;
        private String policyName;
        private NumaResourcePolicySpec policy;

        private Builder() {}

        private Builder(NodeAgentConfig c) {
            apiVersion = c.apiVersion;
            kind = c.kind;
            nodeName = c.nodeName;
            sysfsRoot = c.sysfsRoot;
            cgroupRoot = c.cgroupRoot;
            cgroupDriver = c.cgroupDriver;
            stateDir = c.stateDir;
            kubeletCgroupRoot = c.kubeletCgroupRoot;
            exclusiveCpuQuota = c.exclusiveCpuQuota;
            pinning = c.pinning;
            nriSocket = c.nriSocket;
            nriPluginName = c.nriPluginName;
            nriPluginIndex = c.nriPluginIndex;
            reconcilePeriod = c.reconcilePeriod;
            podResourcesSocket = c.podResourcesSocket;
            podResourcesSocketMode = c.podResourcesSocketMode;
            podResourcesQps = c.podResourcesQps;
            podResourcesBurst = c.podResourcesBurst;
            kubeletPodResourcesSocket = c.kubeletPodResourcesSocket;
            kubeletCallTimeout = c.kubeletCallTimeout;
            kubeletCheckSocket = c.kubeletCheckSocket;
            kubeletConfigFile = c.kubeletConfigFile;
            statusMinInterval = c.statusMinInterval;
            metricsBindAddress = c.metricsBindAddress;
            metricsPort = c.metricsPort;
            metricsSecurity = c.metricsSecurity;
            metricsCertFile = c.metricsCertFile;
            metricsKeyFile = c.metricsKeyFile;
            metricsAuthCacheTtl = c.metricsAuthCacheTtl;
            healthBindAddress = c.healthBindAddress;
            healthPort = c.healthPort;
            logLevel = c.logLevel;
            logFormat = c.logFormat;
            policyName = c.policyName;
            policy = c.policy;
        }

        public Builder nodeName(String v) {
            nodeName = v;
            return this;
        }

        public Builder sysfsRoot(String v) {
            sysfsRoot = v;
            return this;
        }

        public Builder cgroupRoot(String v) {
            cgroupRoot = v;
            return this;
        }

        public Builder cgroupDriver(String v) {
            cgroupDriver = v;
            return this;
        }

        public Builder stateDir(String v) {
            stateDir = v;
            return this;
        }

        public Builder kubeletCgroupRoot(String v) {
            kubeletCgroupRoot = v;
            return this;
        }

        public Builder exclusiveCpuQuota(String v) {
            exclusiveCpuQuota = v;
            return this;
        }

        public Builder pinning(String v) {
            pinning = v;
            return this;
        }

        public Builder nriSocket(String v) {
            nriSocket = v;
            return this;
        }

        public Builder nriPluginName(String v) {
            nriPluginName = v;
            return this;
        }

        public Builder nriPluginIndex(String v) {
            nriPluginIndex = v;
            return this;
        }

        public Builder reconcilePeriod(String v) {
            reconcilePeriod = v;
            return this;
        }

        public Builder podResourcesSocket(String v) {
            podResourcesSocket = v;
            return this;
        }

        public Builder podResourcesSocketMode(String v) {
            podResourcesSocketMode = v;
            return this;
        }

        public Builder podResourcesQps(BigDecimal v) {
            podResourcesQps = v;
            return this;
        }

        public Builder podResourcesBurst(Integer v) {
            podResourcesBurst = v;
            return this;
        }

        public Builder kubeletPodResourcesSocket(String v) {
            kubeletPodResourcesSocket = v;
            return this;
        }

        public Builder kubeletCallTimeout(String v) {
            kubeletCallTimeout = v;
            return this;
        }

        public Builder kubeletCheckSocket(String v) {
            kubeletCheckSocket = v;
            return this;
        }

        public Builder kubeletConfigFile(String v) {
            kubeletConfigFile = v;
            return this;
        }

        public Builder statusMinInterval(String v) {
            statusMinInterval = v;
            return this;
        }

        public Builder metricsBindAddress(String v) {
            metricsBindAddress = v;
            return this;
        }

        public Builder metricsPort(Integer v) {
            metricsPort = v;
            return this;
        }

        public Builder metricsSecurity(String v) {
            metricsSecurity = v;
            return this;
        }

        public Builder metricsCertFile(String v) {
            metricsCertFile = v;
            return this;
        }

        public Builder metricsKeyFile(String v) {
            metricsKeyFile = v;
            return this;
        }

        public Builder metricsAuthCacheTtl(String v) {
            metricsAuthCacheTtl = v;
            return this;
        }

        public Builder healthBindAddress(String v) {
            healthBindAddress = v;
            return this;
        }

        public Builder healthPort(Integer v) {
            healthPort = v;
            return this;
        }

        public Builder logLevel(String v) {
            logLevel = v;
            return this;
        }

        public Builder logFormat(String v) {
            logFormat = v;
            return this;
        }

        public Builder policyName(String v) {
            policyName = v;
            return this;
        }

        public Builder policy(NumaResourcePolicySpec v) {
            policy = v;
            return this;
        }

        public NodeAgentConfig build() {
            return new NodeAgentConfig(
                    apiVersion,
                    kind,
                    nodeName,
                    sysfsRoot,
                    cgroupRoot,
                    cgroupDriver,
                    stateDir,
                    kubeletCgroupRoot,
                    exclusiveCpuQuota,
                    pinning,
                    nriSocket,
                    nriPluginName,
                    nriPluginIndex,
                    reconcilePeriod,
                    podResourcesSocket,
                    podResourcesSocketMode,
                    podResourcesQps,
                    podResourcesBurst,
                    kubeletPodResourcesSocket,
                    kubeletCallTimeout,
                    kubeletCheckSocket,
                    kubeletConfigFile,
                    statusMinInterval,
                    metricsBindAddress,
                    metricsPort,
                    metricsSecurity,
                    metricsCertFile,
                    metricsKeyFile,
                    metricsAuthCacheTtl,
                    healthBindAddress,
                    healthPort,
                    logLevel,
                    logFormat,
                    policyName,
                    policy);
        }
    }
}
