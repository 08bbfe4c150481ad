package io.podnuma.demo.pinning;

import io.podnuma.testkit.cpu.CpuList;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/** Whether this host lets the demo pin real processes: Linux, root, a cgroup v1 cpuset hierarchy, 2 CPUs or more. */
public final class HostCheck {

    static final Path CGROUP_MOUNT = Path.of("/sys/fs/cgroup");
    static final Path CPUSET_V1 = CGROUP_MOUNT.resolve("cpuset");

    private HostCheck() {}

    /** Why the pinning part cannot run here, or empty when it can. */
    public static Optional<String> unavailable() {
        return unavailable(System.getProperty("os.name", ""), CGROUP_MOUNT, Path.of("/proc/self/status"));
    }

    /**
     * @param osName the {@code os.name} system property
     * @param cgroupMount where cgroups are mounted ({@code /sys/fs/cgroup})
     * @param procSelfStatus this process's {@code /proc/self/status}
     */
    static Optional<String> unavailable(String osName, Path cgroupMount, Path procSelfStatus) {
        if (!osName.toLowerCase(Locale.ROOT).contains("linux")) {
            return Optional.of("this is not Linux (" + osName + "): cpusets are a Linux feature");
        }
        Path cpuset = cgroupMount.resolve("cpuset");
        if (!Files.isRegularFile(cpuset.resolve("cpuset.cpus"))) {
            if (Files.isRegularFile(cgroupMount.resolve("cgroup.controllers"))) {
                return Optional.of("this host runs cgroup v2 (unified hierarchy at " + cgroupMount + "); the demo"
                        + " drives a private subtree of the cgroup v1 cpuset hierarchy (the agent's v2 writer is"
                        + " covered by its own tests)");
            }
            return Optional.of("no cgroup v1 cpuset hierarchy at " + cpuset);
        }
        try {
            if (!isRoot(procSelfStatus)) {
                return Optional.of("not running as root: creating cgroups and moving processes into them needs root");
            }
            CpuList cpus = CpuList.parse(Files.readString(cpuset.resolve("cpuset.effective_cpus")));
            if (cpus.size() < 2) {
                return Optional.of("this host gives its cpuset hierarchy " + cpus.size() + " CPU (" + cpus
                        + "); the demo needs 2: one reserved for the system, one for a pod's bubble");
            }
        } catch (IOException | IllegalArgumentException e) {
            return Optional.of("cannot read this host's cpuset hierarchy or process status: " + e.getMessage());
        }
        return Optional.empty();
    }

    private static boolean isRoot(Path procSelfStatus) throws IOException {
        for (String line : Files.readAllLines(procSelfStatus)) {
            if (line.startsWith("Uid:")) {
                // real, effective, saved, filesystem: the effective one decides
                String[] ids = line.substring(4).strip().split("\\s+");
                if (ids.length < 2) {
                    throw new IOException(procSelfStatus + ": line \"" + line + "\" has no effective uid");
                }
                return ids[1].equals("0");
            }
        }
        throw new IOException(procSelfStatus + " has no Uid line");
    }
}
