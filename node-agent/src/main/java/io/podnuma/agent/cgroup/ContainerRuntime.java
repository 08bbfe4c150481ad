package io.podnuma.agent.cgroup;

/** A container runtime, as named in a pod's {@code containerID} and in its systemd scope names. */
public enum ContainerRuntime {
    CONTAINERD("containerd", "cri-containerd-"),
    CRIO("cri-o", "crio-");

    private final String scheme;
    private final String scopePrefix;

    ContainerRuntime(String scheme, String scopePrefix) {
        this.scheme = scheme;
        this.scopePrefix = scopePrefix;
    }

    /** The scheme of a container ID in pod status, e.g. {@code containerd} in {@code containerd://<id>}. */
    public String scheme() {
        return scheme;
    }

    /**
     * The runtime of a node's {@code status.nodeInfo.containerRuntimeVersion}, e.g. {@code containerd://1.7.2}.
     *
     * @throws InvalidCgroupNameException naming the value and the supported runtimes
     */
    public static ContainerRuntime fromRuntimeVersion(String version) {
        String v = version == null ? "" : version.strip();
        for (ContainerRuntime r : values()) {
            if (v.startsWith(r.scheme + "://")) {
                return r;
            }
        }
        throw new InvalidCgroupNameException("container runtime version " + InvalidCgroupNameException.quote(version)
                + " names no supported runtime: expected containerd://<version> or cri-o://<version>");
    }

    /** The prefix of the container's systemd scope, e.g. {@code cri-containerd-}. */
    public String scopePrefix() {
        return scopePrefix;
    }
}
