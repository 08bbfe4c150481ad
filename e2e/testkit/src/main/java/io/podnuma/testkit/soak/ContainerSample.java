package io.podnuma.testkit.soak;

import io.podnuma.testkit.cpu.CpuList;
import java.util.List;
import java.util.Objects;

/**
 * One container as read from the host at one sample: its cgroup's {@code cpuset.cpus} and the CPUs its processes may
 * run on (empty list where the driver sees no processes, e.g. a sandbox).
 *
 * @param pod the pod's UID
 * @param container the container's name
 * @param cgroupId the runtime's container ID (a "reboot" gives the same container a new one)
 * @param cpuset the cgroup's {@code cpuset.cpus}
 * @param affinities {@code Cpus_allowed_list} of each of its processes
 */
public record ContainerSample(String pod, String container, String cgroupId, CpuList cpuset, List<CpuList> affinities) {

    public ContainerSample {
        Objects.requireNonNull(pod);
        Objects.requireNonNull(container);
        Objects.requireNonNull(cgroupId);
        Objects.requireNonNull(cpuset);
        affinities = List.copyOf(affinities);
    }

    /** The key the window is tracked by: the same container in a new cgroup starts its window again. */
    String key() {
        return pod + "/" + container + "@" + cgroupId;
    }

    String name() {
        return pod + "/" + container;
    }
}
