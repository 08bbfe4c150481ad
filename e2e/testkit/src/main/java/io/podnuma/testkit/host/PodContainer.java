package io.podnuma.testkit.host;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One container as the runtime knows it: its pod's QoS class and UID and the container's ID (64 hex digits), which
 * together name its cgroup.
 */
public record PodContainer(QosClass qos, String podUid, String containerId) {

    /** What containerd puts before the ID in a pod status {@code containerID}. */
    public static final String CONTAINERD_PREFIX = "containerd://";

    private static final Pattern ID = Pattern.compile("[0-9a-f]{64}");

    public PodContainer {
        Objects.requireNonNull(qos, "qos");
        Objects.requireNonNull(podUid, "podUid");
        if (!ID.matcher(containerId).matches()) {
            throw new IllegalArgumentException(
                    "container ID \"" + containerId + "\" of pod " + podUid + " is not 64 lower-case hex digits");
        }
    }

    /**
     * The container of a pod status entry.
     *
     * @param statusContainerId the status' {@code containerID}, {@code containerd://<64 hex digits>}
     * @throws IllegalArgumentException naming the value when it is not a containerd ID
     */
    public static PodContainer fromStatus(QosClass qos, String podUid, String statusContainerId) {
        if (statusContainerId == null || !statusContainerId.startsWith(CONTAINERD_PREFIX)) {
            throw new IllegalArgumentException("containerID \"" + statusContainerId + "\" of pod " + podUid
                    + " is not a containerd ID (containerd://<64 hex digits>)");
        }
        return new PodContainer(qos, podUid, statusContainerId.substring(CONTAINERD_PREFIX.length()));
    }

    /** The pod status form of the ID, {@code containerd://<id>}. */
    public String statusContainerId() {
        return CONTAINERD_PREFIX + containerId;
    }
}
