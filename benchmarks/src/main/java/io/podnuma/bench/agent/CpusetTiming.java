package io.podnuma.bench.agent;

import io.podnuma.agent.cgroup.HostCgroupFiles;
import io.podnuma.agent.engine.cpuset.CpuSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * The bench's timed reads and writes of a container cgroup's {@code cpuset.cpus} (the cgroups themselves come from
 * the test kit's kubelet-like host). They read and write the file the way the agent does, so the bare write and the
 * polling cost compare with the agent's own.
 */
final class CpusetTiming {

    private static final HostCgroupFiles FILES = new HostCgroupFiles();

    private CpusetTiming() {}

    static CpuSet cpusetOf(Path cgroupDir) throws IOException {
        return CpuSet.parse(FILES.read(cgroupDir.resolve("cpuset.cpus")));
    }

    /**
     * Polls the cgroup's {@code cpuset.cpus} every {@code pollNanos} until it holds {@code wanted}.
     *
     * @return {@link System#nanoTime()} when it was seen to hold it, or -1 after {@code timeoutNanos}
     */
    static long awaitCpus(Path cgroupDir, CpuSet wanted, long pollNanos, long timeoutNanos) throws IOException {
        Path file = cgroupDir.resolve("cpuset.cpus");
        long deadline = System.nanoTime() + timeoutNanos;
        while (true) {
            String text = FILES.read(file);
            long now = System.nanoTime();
            if (!text.isBlank() && CpuSet.parse(text).equals(wanted)) {
                return now;
            }
            if (now > deadline) {
                return -1;
            }
            LockSupport.parkNanos(pollNanos);
        }
    }

    /**
     * The bare cost of what the agent does for a new container: widens its {@code cpuset.cpus} to {@code all} (as a
     * new cgroup starts), then times the one write of {@code wanted}. Only while no agent watches.
     */
    static long timeBareWrite(Path cgroupDir, CpuSet all, CpuSet wanted) throws IOException {
        Path file = cgroupDir.resolve("cpuset.cpus");
        FILES.write(file, all.toString());
        String value = wanted.toString();
        long t0 = System.nanoTime();
        FILES.write(file, value);
        return System.nanoTime() - t0;
    }
}
