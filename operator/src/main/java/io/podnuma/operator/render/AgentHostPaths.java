package io.podnuma.operator.render;

import java.util.Objects;
import java.util.Optional;

/**
 * Where the agent's files are on the node (host paths; the container sees them at fixed places).
 *
 * @param sys the host's sysfs, read for the topology
 * @param cgroup the host's cgroup mount, written for the pins
 * @param stateDir the agent's checkpoint and its PodResources socket; survives the agent pod
 * @param kubeletRootDir the kubelet's {@code --root-dir} (its {@code cpu_manager_state}), read for the coexistence
 *     check; empty: not read
 * @param kubeletConfigFile the kubelet's configuration file, read for the same check; empty: not read
 */
public record AgentHostPaths(
        String sys,
        String cgroup,
        String stateDir,
        Optional<String> kubeletRootDir,
        Optional<String> kubeletConfigFile) {

    public AgentHostPaths {
        for (String p : new String[] {sys, cgroup, stateDir}) {
            requireAbsolute(p);
        }
        kubeletRootDir.ifPresent(AgentHostPaths::requireAbsolute);
        kubeletConfigFile.ifPresent(AgentHostPaths::requireAbsolute);
    }

    /** A kubeadm-style node: {@code /var/lib/kubelet} with its {@code config.yaml}. */
    public static AgentHostPaths defaults() {
        return new AgentHostPaths(
                "/sys",
                "/sys/fs/cgroup",
                "/var/lib/podnuma",
                Optional.of("/var/lib/kubelet"),
                Optional.of("/var/lib/kubelet/config.yaml"));
    }

    private static void requireAbsolute(String path) {
        Objects.requireNonNull(path, "host path");
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("host path '" + path + "' must be absolute");
        }
    }
}
