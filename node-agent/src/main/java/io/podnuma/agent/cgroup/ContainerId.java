package io.podnuma.agent.cgroup;

import static io.podnuma.agent.cgroup.InvalidCgroupNameException.quote;

/**
 * A container as the runtime names it: the runtime and its 64-hex-digit ID.
 *
 * @param runtime the runtime that created the container
 * @param id 64 lowercase hexadecimal digits
 */
public record ContainerId(ContainerRuntime runtime, String id) {

    private static final int ID_LENGTH = 64;

    public ContainerId {
        if (runtime == null) {
            throw new InvalidCgroupNameException("container runtime is missing for container ID " + quote(id));
        }
        checkId(id, "container ID");
    }

    /**
     * Parses a pod status {@code containerID}, e.g. {@code containerd://<id>} or {@code cri-o://<id>}.
     *
     * @throws InvalidCgroupNameException naming the value and the allowed forms
     */
    public static ContainerId parse(String text) {
        if (text == null) {
            throw new InvalidCgroupNameException(
                    "container ID is null: expected containerd://<64 hex digits> or cri-o://<64 hex digits>");
        }
        int sep = text.indexOf("://");
        if (sep < 0) {
            throw new InvalidCgroupNameException("container ID " + quote(text)
                    + " has no runtime scheme: expected containerd://<64 hex digits> or cri-o://<64 hex digits>");
        }
        String scheme = text.substring(0, sep);
        for (ContainerRuntime r : ContainerRuntime.values()) {
            if (r.scheme().equals(scheme)) {
                return new ContainerId(r, text.substring(sep + 3));
            }
        }
        throw new InvalidCgroupNameException("container ID " + quote(text) + " has runtime " + quote(scheme)
                + ", which is not supported: allowed runtimes are containerd and cri-o");
    }

    static void checkId(String id, String what) {
        if (id == null || id.length() != ID_LENGTH) {
            throw new InvalidCgroupNameException(what + " " + quote(id) + " has "
                    + (id == null ? "no" : String.valueOf(id.length()))
                    + " characters: expected exactly 64 lowercase hexadecimal digits");
        }
        for (int i = 0; i < id.length(); i++) {
            if (!isLowerHex(id.charAt(i))) {
                throw new InvalidCgroupNameException(
                        what + " " + quote(id) + " has " + quote(String.valueOf(id.charAt(i))) + " at position " + i
                                + ": expected exactly 64 lowercase hexadecimal digits");
            }
        }
    }

    static boolean isLowerHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    }

    /** The pod status spelling, {@code <scheme>://<id>}. */
    @Override
    public String toString() {
        return runtime.scheme() + "://" + id;
    }
}
