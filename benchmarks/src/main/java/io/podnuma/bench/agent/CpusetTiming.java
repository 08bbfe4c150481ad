package io.podnuma.bench.agent;

import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupLayout;
import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupVersion;
import io.podnuma.agent.cgroup.CgroupWrite;
import io.podnuma.agent.cgroup.HostCgroupFiles;
import io.podnuma.agent.cgroup.WritableCgroupFile;
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

    private CpusetTiming() {}

    /** The agent's files, confined to the one cgroup: a timed write pays the agent's check too. */
    private static HostCgroupFiles files(Path cgroupDir) {
        return new HostCgroupFiles(
                new CgroupLayout(CgroupVersion.V1, cgroupDir, cgroupDir, new CgroupNaming(CgroupDriver.CGROUPFS)));
    }

    static CpuSet cpusetOf(Path cgroupDir) throws IOException {
        return CpuSet.parse(files(cgroupDir).read(cgroupDir.resolve("cpuset.cpus")));
    }

    /**
     * Polls the cgroup's {@code cpuset.cpus} every {@code pollNanos} until it holds {@code wanted}.
     *
     * @return {@link System#nanoTime()} when it was seen to hold it, or -1 after {@code timeoutNanos}
     */
    static long awaitCpus(Path cgroupDir, CpuSet wanted, long pollNanos, long timeoutNanos) throws IOException {
        Path file = cgroupDir.resolve("cpuset.cpus");
        HostCgroupFiles files = files(cgroupDir);
        long deadline = System.nanoTime() + timeoutNanos;
        while (true) {
            String text = files.read(file);
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
        HostCgroupFiles files = files(cgroupDir);
        files.write(new CgroupWrite(cgroupDir, WritableCgroupFile.CPUSET_CPUS, all.toString()));
        CgroupWrite write = new CgroupWrite(cgroupDir, WritableCgroupFile.CPUSET_CPUS, wanted.toString());
        long t0 = System.nanoTime();
        files.write(write);
        return System.nanoTime() - t0;
    }
}
