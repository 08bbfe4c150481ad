package io.podnuma.e2e.footprint;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.testkit.host.CgroupDriverName;
import io.podnuma.testkit.host.KubeletCgroupNames;
import io.podnuma.testkit.host.QosClass;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A pod's cgroups in the memory and cpuacct hierarchies of a cgroup v1 host, named as the kubelet names them under
 * the cgroupfs driver (the real node's): from the pod's UID and QoS class, through the test kit's
 * {@link KubeletCgroupNames}, never from the agent's code.
 */
record PodCgroup(Path memory, Path cpuacct) {

    static final Path HOST_ROOT = Path.of("/sys/fs/cgroup");

    /**
     * The cgroups of {@code pod} under {@code root} ({@code /sys/fs/cgroup} on a host).
     *
     * @throws IllegalArgumentException when the pod has no UID or no QoS class in its status yet
     */
    static PodCgroup of(Path root, Pod pod) {
        String uid = pod.getMetadata() == null ? null : pod.getMetadata().getUid();
        String qos = pod.getStatus() == null ? null : pod.getStatus().getQosClass();
        if (uid == null || uid.isBlank() || qos == null) {
            throw new IllegalArgumentException("pod " + name(pod) + " has no UID or no status.qosClass yet (uid " + uid
                    + ", qosClass " + qos + ")");
        }
        Path relative = KubeletCgroupNames.pod(CgroupDriverName.CGROUPFS, QosClass.of(qos), uid);
        return new PodCgroup(
                root.resolve("memory").resolve(relative),
                root.resolve("cpuacct").resolve(relative));
    }

    /**
     * What the memory cgroup says now: {@code memory.usage_in_bytes}, {@code memory.stat} and, where the kernel has
     * the file, {@code memory.kmem.usage_in_bytes} (kernel memory: thread stacks, slab, page tables).
     */
    MemoryReading memoryNow() throws IOException {
        long usage = number(memory.resolve("memory.usage_in_bytes"));
        Path kmem = memory.resolve("memory.kmem.usage_in_bytes");
        return new MemoryReading(
                usage,
                MemoryStat.parse(Files.readString(memory.resolve("memory.stat"))),
                Files.isRegularFile(kmem) ? Optional.of(number(kmem)) : Optional.empty());
    }

    /** CPU time of every task in the pod's tree so far ({@code cpuacct.usage}, nanoseconds). */
    long cpuNanos() throws IOException {
        return number(cpuacct.resolve("cpuacct.usage"));
    }

    private static long number(Path file) throws IOException {
        return Long.parseLong(Files.readString(file).strip());
    }

    /** One read of a memory cgroup. */
    record MemoryReading(long usageBytes, MemoryStat stat, Optional<Long> kmemBytes) {
        long workingSetBytes() {
            return stat.workingSet(usageBytes);
        }
    }

    private static String name(Pod pod) {
        return pod.getMetadata() == null ? "(no metadata)" : pod.getMetadata().getName();
    }
}
