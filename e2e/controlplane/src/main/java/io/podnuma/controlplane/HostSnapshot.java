package io.podnuma.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What a {@link RealNode} may change on the host, as one comparable value: the sysctls it sets, the fixed paths its
 * programs create, a {@code kubepods} cgroup in each hierarchy, its bridge, and mounts of the kubelet, containerd or
 * the node's run directory. Taken before a node starts and after it is closed, the two must be equal; {@link
 * #leftoversOf} says in words what a closed node left.
 */
public record HostSnapshot(
        Map<String, String> sysctls,
        Map<Path, Boolean> fixedPaths,
        Map<Path, Boolean> kubepods,
        boolean bridge,
        List<String> mountsOfNode) {

    public static HostSnapshot take() {
        Map<String, String> sysctls = new LinkedHashMap<>();
        for (String name : RealNode.SYSCTLS) {
            try {
                sysctls.put(name, HostChanges.read(HostChanges.HostRoots.REAL.sysctl(name)));
            } catch (UncheckedIOException e) {
                sysctls.put(name, "(unreadable)");
            }
        }
        Map<Path, Boolean> paths = new LinkedHashMap<>();
        RealNode.FIXED_PATHS.forEach(p -> paths.put(p, Files.exists(p)));
        Map<Path, Boolean> kubepods = new LinkedHashMap<>();
        new HostChanges(Path.of("/nonexistent"), HostChanges.HostRoots.REAL)
                .hierarchies()
                .forEach(h -> kubepods.put(h, Files.exists(h.resolve("kubepods"))));
        List<String> mounts;
        try {
            mounts = Files.readAllLines(Path.of("/proc/self/mountinfo")).stream()
                    .map(line -> line.split(" ")[4])
                    .filter(m -> m.contains("kubelet") || m.contains("containerd") || m.contains("realnode"))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new HostSnapshot(
                sysctls, paths, kubepods, Files.exists(Path.of("/sys/class/net", RealNode.BRIDGE)), mounts);
    }

    /**
     * What a node whose run directory was {@code runDir} left on the host, one line each, compared with {@code before}
     * (taken before it started) and in absolute terms: no kubepods cgroup, no bridge, no mount of a node, no process
     * naming the run directory, the run directory gone. Empty when the host is clean.
     */
    public List<String> leftoversOf(Path runDir, HostSnapshot before) {
        List<String> left = new ArrayList<>();
        sysctls.forEach((name, value) -> {
            if (!value.equals(before.sysctls().get(name))) {
                left.add("sysctl " + name + " = " + value + " (was "
                        + before.sysctls().get(name) + ")");
            }
        });
        fixedPaths.forEach((path, exists) -> {
            if (exists && !before.fixedPaths().getOrDefault(path, false)) {
                left.add("path " + path);
            }
        });
        kubepods.forEach((hierarchy, exists) -> {
            if (exists) {
                left.add("cgroup " + hierarchy.resolve("kubepods"));
            }
        });
        if (bridge) {
            left.add("link " + RealNode.BRIDGE);
        }
        mountsOfNode.forEach(m -> left.add("mount " + m));
        HostChanges.mountsBelow(runDir).forEach(m -> left.add("mount " + m));
        if (Files.exists(runDir)) {
            left.add("directory " + runDir);
        }
        processesMentioning(runDir.toString()).forEach(pid -> left.add("process " + pid));
        return left;
    }

    /** The processes (not this JVM) whose command line names {@code marker}. */
    public static List<Long> processesMentioning(String marker) {
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            return entries.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .filter(p -> {
                        try {
                            return new String(Files.readAllBytes(p.resolve("cmdline"))).contains(marker);
                        } catch (IOException gone) {
                            return false;
                        }
                    })
                    .map(p -> Long.parseLong(p.getFileName().toString()))
                    .filter(pid -> pid != ProcessHandle.current().pid())
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
