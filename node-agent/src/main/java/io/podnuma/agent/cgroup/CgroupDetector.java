package io.podnuma.agent.cgroup;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Recognises the host's cgroup setup from a mount table ({@code /proc/self/mountinfo} format) and the
 * directories below the cgroup root. The root is injectable because the agent sees the host's
 * {@code /sys/fs/cgroup} wherever its DaemonSet mounts it, while the mount table names host paths.
 */
public final class CgroupDetector {

    /** Where the host mounts its cgroup hierarchies; mount points in the table are below it. */
    public static final Path HOST_MOUNT_BASE = Path.of("/sys/fs/cgroup");

    private final Path root;

    /** @param root the directory where {@link #HOST_MOUNT_BASE} of the host is visible */
    public CgroupDetector(Path root) {
        this.root = root;
    }

    /**
     * @param mountinfo the text of {@code /proc/self/mountinfo}
     * @param driver the kubelet's cgroup driver when configured; otherwise recognised from the
     *     directory that exists under the cpuset hierarchy ({@code kubepods} or {@code kubepods.slice})
     */
    public CgroupLayout detect(String mountinfo, Optional<CgroupDriver> driver) throws CgroupDetectionException {
        return detect(mountinfo, driver, CgroupPath.root());
    }

    /**
     * @param kubeletCgroupRoot the kubelet's {@code --cgroup-root}: kubepods sits under it in every hierarchy, and
     *     the layout's roots are moved there (the agent never looks above it)
     */
    public CgroupLayout detect(String mountinfo, Optional<CgroupDriver> driver, CgroupPath kubeletCgroupRoot)
            throws CgroupDetectionException {
        List<Mount> mounts = parseMounts(mountinfo);
        Optional<Mount> cpusetV1 = mounts.stream()
                .filter(m -> m.fsType().equals("cgroup") && m.hasOption("cpuset"))
                .findFirst();
        CgroupVersion version;
        Path cpusetRoot;
        Path cpuRoot;
        if (cpusetV1.isPresent()) {
            version = CgroupVersion.V1;
            cpusetRoot = underRoot(cpusetV1.get());
            Optional<Mount> cpu = mounts.stream()
                    .filter(m -> m.fsType().equals("cgroup") && m.hasOption("cpu"))
                    .findFirst();
            cpuRoot = cpu.isPresent() ? underRoot(cpu.get()) : cpusetRoot;
        } else {
            Optional<Mount> unified = mounts.stream()
                    .filter(m -> m.fsType().equals("cgroup2") && m.mountPoint().equals(HOST_MOUNT_BASE))
                    .findFirst();
            if (unified.isEmpty()) {
                throw new CgroupDetectionException("no cgroup hierarchy with the cpuset controller in the mount table: "
                        + "expected a cgroup v1 mount with option cpuset or a cgroup2 mount at " + HOST_MOUNT_BASE
                        + "; found " + describe(mounts));
            }
            version = CgroupVersion.V2;
            cpusetRoot = root;
            cpuRoot = root;
            Path controllers = root.resolve("cgroup.controllers");
            if (Files.isRegularFile(controllers)) {
                String text = read(controllers);
                if (!Arrays.asList(text.strip().split("\\s+")).contains("cpuset")) {
                    throw new CgroupDetectionException(controllers + " lists \"" + text.strip()
                            + "\" without cpuset: the kernel or the init system does not offer the cpuset controller");
                }
            }
        }
        cpusetRoot = kubeletCgroupRoot.in(cpusetRoot);
        cpuRoot = kubeletCgroupRoot.in(cpuRoot);
        CgroupDriver d = driver.isPresent() ? driver.get() : detectDriver(cpusetRoot);
        return new CgroupLayout(version, cpusetRoot, cpuRoot, new CgroupNaming(d));
    }

    private static CgroupDriver detectDriver(Path cpusetRoot) throws CgroupDetectionException {
        boolean cgroupfs = Files.isDirectory(cpusetRoot.resolve(CgroupDriver.CGROUPFS.kubepodsName()));
        boolean systemd = Files.isDirectory(cpusetRoot.resolve(CgroupDriver.SYSTEMD.kubepodsName()));
        if (cgroupfs && systemd) {
            throw new CgroupDetectionException("both kubepods and kubepods.slice exist under " + cpusetRoot
                    + ": set the cgroup driver explicitly (cgroupfs or systemd, as in the kubelet's cgroupDriver)");
        }
        if (!cgroupfs && !systemd) {
            throw new CgroupDetectionException("neither kubepods nor kubepods.slice exists under " + cpusetRoot
                    + ": is the kubelet running with this cgroup root? Set the cgroup driver explicitly"
                    + " (cgroupfs or systemd) to skip this check");
        }
        return systemd ? CgroupDriver.SYSTEMD : CgroupDriver.CGROUPFS;
    }

    private Path underRoot(Mount m) throws CgroupDetectionException {
        if (!m.mountPoint().startsWith(HOST_MOUNT_BASE)) {
            throw new CgroupDetectionException("cgroup hierarchy " + m.options() + " is mounted at " + m.mountPoint()
                    + ", outside " + HOST_MOUNT_BASE + ": mount it there or point the agent at a root that has it");
        }
        return root.resolve(HOST_MOUNT_BASE.relativize(m.mountPoint()).toString());
    }

    /** One mount table line: the mount point, the file system type and its super options. */
    record Mount(Path mountPoint, String fsType, List<String> options) {
        boolean hasOption(String o) {
            return options.contains(o);
        }
    }

    static List<Mount> parseMounts(String mountinfo) throws CgroupDetectionException {
        List<Mount> mounts = new ArrayList<>();
        int lineNo = 0;
        for (String line : mountinfo.split("\n")) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.strip().split(" ");
            int sep = Arrays.asList(f).indexOf("-");
            if (sep < 6 || f.length < sep + 4) {
                throw new CgroupDetectionException("mount table line " + lineNo + " \"" + line.strip()
                        + "\" is not in /proc/self/mountinfo format (id parent major:minor root mount-point"
                        + " options [optional...] - type source super-options)");
            }
            mounts.add(new Mount(Path.of(unescape(f[4])), f[sep + 1], List.of(f[sep + 3].split(","))));
        }
        return mounts;
    }

    /** The kernel writes space, tab, newline and backslash in mount points as {@code \ooo} octal. */
    private static String unescape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && isOctal(s, i + 1)) {
                b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static boolean isOctal(String s, int from) {
        if (from + 3 > s.length()) {
            return false;
        }
        for (int i = from; i < from + 3; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '7') {
                return false;
            }
        }
        return true;
    }

    private static String describe(List<Mount> mounts) {
        List<String> cg = new ArrayList<>();
        for (Mount m : mounts) {
            if (m.fsType().startsWith("cgroup")) {
                cg.add(m.fsType() + " at " + m.mountPoint() + " " + m.options());
            }
        }
        return cg.isEmpty() ? "no cgroup mounts" : String.join("; ", cg);
    }

    private static String read(Path p) throws CgroupDetectionException {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            throw new CgroupDetectionException("cannot read " + p + ": " + e.getMessage());
        }
    }
}
