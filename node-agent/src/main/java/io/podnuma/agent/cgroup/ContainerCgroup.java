package io.podnuma.agent.cgroup;

import io.podnuma.agent.engine.pod.PodQos;
import java.util.Objects;

/**
 * The identity of a container cgroup: the pod's QoS class (which decides the parent directory), the
 * pod's UID and the container.
 */
public record ContainerCgroup(PodQos qos, String podUid, ContainerId containerId) {

    public ContainerCgroup {
        Objects.requireNonNull(qos, "qos");
        Objects.requireNonNull(containerId, "containerId");
        PodUids.check(podUid);
    }
}
