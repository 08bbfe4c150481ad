package io.podnuma.e2e.pinning;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Whether this host lets the demo pin real processes: root and a cgroup v1 cpuset hierarchy. */
public final class HostCheck {

    static final Path CGROUP_MOUNT = Path.of("/sys/fs/cgroup");
    static final Path CPUSET_V1 = CGROUP_MOUNT.resolve("cpuset");

    private HostCheck() {}

    /** Why the pinning part cannot run here, or empty when it can. */
    public static Optional<String> unavailable() {
        if (!System.getProperty("os.name", "")
                .toLowerCase(java.util.Locale.ROOT)
                .contains("linux")) {
            return Optional.of(
                    "this is not Linux (" + System.getProperty("os.name") + "): cpusets are a Linux feature");
        }
        if (!Files.isRegularFile(CPUSET_V1.resolve("cpuset.cpus"))) {
            if (Files.isRegularFile(CGROUP_MOUNT.resolve("cgroup.controllers"))) {
                return Optional.of("this host runs cgroup v2 (unified hierarchy at " + CGROUP_MOUNT + "); the demo"
                        + " drives a private subtree of the cgroup v1 cpuset hierarchy (the agent's v2 writer is"
                        + " covered by its own tests)");
            }
            return Optional.of("no cgroup v1 cpuset hierarchy at " + CPUSET_V1);
        }
        try {
            if (!isRoot()) {
                return Optional.of("not running as root: creating cgroups and moving processes into them needs root");
            }
        } catch (IOException e) {
            return Optional.of("cannot tell whether this is root: " + e.getMessage());
        }
        return Optional.empty();
    }

    private static boolean isRoot() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("Uid:")) {
                // real, effective, saved, filesystem: the effective one decides
                return line.substring(4).strip().split("\\s+")[1].equals("0");
            }
        }
        throw new IOException("/proc/self/status has no Uid line");
    }
}
