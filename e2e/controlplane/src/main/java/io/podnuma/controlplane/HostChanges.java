package io.podnuma.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What a {@link RealNode} run does to the host outside its own directory, written down <em>before</em> it does
 * it, so the run itself or the next one (after a {@code kill -9} of the JVM) can undo it: sysctls the kubelet and
 * the bridge plugin change, fixed paths they create, the {@code kubepods} cgroups, the bridge link. Mounts and
 * processes need no record: every mount of a run is below its directory, and every process of a run either
 * names that directory on its command line (kubelet, containerd, the shims) or lives in a recorded cgroup (the
 * containers).
 *
 * <p>The record is {@value #FILE} in the run directory, one change a line: {@code sysctl <name> <original
 * value>}, {@code path <absolute path>}, {@code cgroup <absolute path>} or {@code link <name>}.
 */
final class HostChanges {

    static final String FILE = "host-changes";

    /** The parts of the host a run touches; tests point them at temporary directories. */
    record HostRoots(Path procSys, Path cgroupRoot, Path classNet, Path proc) {
        static final HostRoots REAL = new HostRoots(
                Path.of("/proc/sys"), Path.of("/sys/fs/cgroup"), Path.of("/sys/class/net"), Path.of("/proc"));

        Path sysctl(String name) {
            return procSys.resolve(name.replace('.', '/'));
        }
    }

    /** One recorded change. */
    sealed interface Change {
        String line();

        static Optional<Change> parse(String line) {
            String[] parts = line.split(" ", 3);
            return switch (parts[0]) {
                case "sysctl" -> parts.length == 3 ? Optional.of(new Sysctl(parts[1], parts[2])) : Optional.empty();
                case "path" ->
                    parts.length >= 2 ? Optional.of(new CreatedPath(Path.of(line.substring(5)))) : Optional.empty();
                case "cgroup" ->
                    parts.length >= 2 ? Optional.of(new CreatedCgroup(Path.of(line.substring(7)))) : Optional.empty();
                case "link" -> parts.length == 2 ? Optional.of(new Link(parts[1])) : Optional.empty();
                default -> Optional.empty();
            };
        }
    }

    record Sysctl(String name, String original) implements Change {
        public String line() {
            return "sysctl " + name + " " + original;
        }
    }

    record CreatedPath(Path path) implements Change {
        public String line() {
            return "path " + path;
        }
    }

    record CreatedCgroup(Path path) implements Change {
        public String line() {
            return "cgroup " + path;
        }
    }

    record Link(String name) implements Change {
        public String line() {
            return "link " + name;
        }
    }

    private static final Duration KILL_TIMEOUT = Duration.ofSeconds(20);

    private final Path runDir;
    private final HostRoots roots;

    HostChanges(Path runDir, HostRoots roots) {
        this.runDir = runDir;
        this.roots = roots;
    }

    /** Records the current value of each sysctl, to be restored. */
    void recordSysctls(List<String> names) {
        for (String name : names) {
            Path file = roots.sysctl(name);
            if (Files.isRegularFile(file)) {
                append(new Sysctl(name, read(file)));
            }
        }
    }

    /** Records the topmost missing ancestor of each path (the one to delete later), if it is missing now. */
    void recordCreatedPaths(List<Path> paths) {
        for (Path path : paths) {
            topmostMissing(path).ifPresent(missing -> append(new CreatedPath(missing)));
        }
    }

    /** Records {@code name} in every cgroup v1 hierarchy where it does not exist yet. */
    void recordCgroups(String name) {
        for (Path hierarchy : hierarchies()) {
            Path cgroup = hierarchy.resolve(name);
            if (!Files.exists(cgroup)) {
                append(new CreatedCgroup(cgroup));
            }
        }
    }

    void recordLink(String name) {
        if (!Files.exists(roots.classNet().resolve(name))) {
            append(new Link(name));
        }
    }

    List<Change> recorded() {
        Path file = runDir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        try {
            return Files.readAllLines(file).stream()
                    .map(Change::parse)
                    .flatMap(Optional::stream)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Undoes everything: kills the run's remaining processes, unmounts what is mounted below the run directory,
     * deletes the link and the cgroups, restores the sysctls and deletes the created paths. Best effort: one
     * failing step is reported on stderr and the others still run. Returns what it could not undo.
     */
    List<String> undo() {
        List<Change> changes = recorded();
        List<String> problems = new ArrayList<>();
        step(problems, "kill processes", () -> killProcesses(changes));
        step(problems, "unmount", this::unmountBelowRunDir);
        for (Change change : changes) {
            switch (change) {
                case Link link -> step(problems, "delete link " + link.name(), () -> deleteLink(link.name()));
                default -> {}
            }
        }
        List<CreatedCgroup> cgroups = changes.stream()
                .filter(CreatedCgroup.class::isInstance)
                .map(CreatedCgroup.class::cast)
                .toList();
        for (CreatedCgroup cgroup : cgroups) {
            step(problems, "remove cgroup " + cgroup.path(), () -> removeCgroup(cgroup.path()));
        }
        for (Change change : changes) {
            switch (change) {
                case Sysctl sysctl -> step(problems, "restore " + sysctl.name(), () -> restore(sysctl));
                case CreatedPath path ->
                    step(problems, "delete " + path.path(), () -> LocalControlPlane.deleteRecursively(path.path()));
                default -> {}
            }
        }
        problems.forEach(problem -> System.err.println("[realnode] could not undo: " + problem));
        return problems;
    }

    private static void step(List<String> problems, String what, Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            problems.add(what + ": " + e.getMessage());
        }
    }

    /** Processes naming the run directory (kubelet, containerd, shims) and those in the recorded cgroups. */
    List<Long> processes(List<Change> changes) {
        List<Long> pids = new ArrayList<>();
        // Every such process names a file below the run dir; the trailing slash keeps realnode-work-37 from
        // matching realnode-work-3799.
        String marker = runDir + "/";
        try (Stream<Path> entries = Files.list(roots.proc())) {
            for (Path entry : entries.toList()) {
                String name = entry.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)
                        || Long.parseLong(name) == ProcessHandle.current().pid()) {
                    continue;
                }
                try {
                    String cmdline = new String(Files.readAllBytes(entry.resolve("cmdline")), StandardCharsets.UTF_8);
                    if (cmdline.contains(marker)) {
                        pids.add(Long.parseLong(name));
                    }
                } catch (IOException gone) {
                    // the process ended meanwhile
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + roots.proc() + ": " + e.getMessage(), e);
        }
        for (Change change : changes) {
            if (change instanceof CreatedCgroup cgroup && Files.isDirectory(cgroup.path())) {
                try (Stream<Path> files = Files.walk(cgroup.path())) {
                    for (Path procs : files.filter(
                                    f -> f.getFileName().toString().equals("cgroup.procs"))
                            .toList()) {
                        for (String line : readLines(procs)) {
                            if (!line.isBlank()) {
                                pids.add(Long.parseLong(line.strip()));
                            }
                        }
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot walk " + cgroup.path() + ": " + e.getMessage(), e);
                }
            }
        }
        return pids.stream()
                .distinct()
                .filter(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .toList();
    }

    private void killProcesses(List<Change> changes) {
        long deadline = System.nanoTime() + KILL_TIMEOUT.toNanos();
        List<Long> left = processes(changes);
        while (!left.isEmpty()) {
            left.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("processes still running after SIGKILL: " + left);
            }
            sleep();
            left = processes(changes);
        }
    }

    private void unmountBelowRunDir() {
        List<String> problems = new ArrayList<>();
        for (int round = 0; round < 5; round++) {
            List<Path> mounts = mountsBelow(runDir);
            if (mounts.isEmpty()) {
                return;
            }
            problems.clear();
            for (Path mount : mounts) {
                CommandResult result = Commands.run(
                        List.of("umount", mount.toString()), java.util.Map.of(), null, Duration.ofSeconds(30));
                if (!result.succeeded()) {
                    // Busy (a process still holds it): detach it now, the kernel frees it when the holder exits.
                    CommandResult lazy = Commands.run(
                            List.of("umount", "-l", mount.toString()),
                            java.util.Map.of(),
                            null,
                            Duration.ofSeconds(30));
                    if (!lazy.succeeded()) {
                        problems.add(mount + ": " + lazy.output().strip());
                    }
                }
            }
        }
        if (!mountsBelow(runDir).isEmpty()) {
            throw new IllegalStateException("still mounted: " + mountsBelow(runDir) + " " + problems);
        }
    }

    /** Mount points at or below {@code dir}, deepest first, from {@code /proc/self/mountinfo}. */
    static List<Path> mountsBelow(Path dir) {
        Path mountinfo = Path.of("/proc/self/mountinfo");
        List<Path> mounts = new ArrayList<>();
        for (String line : readLines(mountinfo)) {
            String[] fields = line.split(" ");
            if (fields.length > 4) {
                Path mount = Path.of(unescape(fields[4]));
                if (mount.startsWith(dir)) {
                    mounts.add(mount);
                }
            }
        }
        mounts.sort(Comparator.comparingInt(Path::getNameCount).reversed());
        return mounts.stream().distinct().toList();
    }

    private static String unescape(String field) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && i + 3 < field.length()) {
                out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private void deleteLink(String name) {
        if (Files.exists(roots.classNet().resolve(name))) {
            Commands.runChecked(List.of("ip", "link", "delete", name));
        }
    }

    /** Removes a cgroup tree deepest first; cgroupfs's own files go with their directory. */
    private static void removeCgroup(Path cgroup) {
        if (!Files.exists(cgroup)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(cgroup)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                try {
                    Files.delete(path);
                } catch (NoSuchFileException gone) {
                    // removed with its directory
                } catch (IOException e) {
                    if (Files.isDirectory(path)) {
                        throw new UncheckedIOException("cannot remove " + path + ": " + e.getMessage(), e);
                    }
                    // a cgroupfs control file: it cannot be deleted, and goes with its directory
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot walk " + cgroup + ": " + e.getMessage(), e);
        }
    }

    private void restore(Sysctl sysctl) {
        Path file = roots.sysctl(sysctl.name());
        try {
            Files.writeString(file, sysctl.original());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        if (!read(file).equals(sysctl.original())) {
            throw new IllegalStateException(
                    file + " reads '" + read(file) + "' after writing '" + sysctl.original() + "'");
        }
    }

    /**
     * The cgroup hierarchies: every directory under the cgroup root, the v2 one of a hybrid host ({@code unified})
     * included, since the kubelet creates {@code kubepods} there too.
     */
    List<Path> hierarchies() {
        if (!Files.isDirectory(roots.cgroupRoot())) {
            return List.of();
        }
        try (Stream<Path> dirs = Files.list(roots.cgroupRoot())) {
            return dirs.filter(Files::isDirectory)
                    .filter(d -> !Files.isSymbolicLink(d))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + roots.cgroupRoot() + ": " + e.getMessage(), e);
        }
    }

    private static Optional<Path> topmostMissing(Path path) {
        Path missing = null;
        for (Path p = path.toAbsolutePath(); p != null && !Files.exists(p); p = p.getParent()) {
            missing = p;
        }
        return Optional.ofNullable(missing);
    }

    private void append(Change change) {
        Path file = runDir.resolve(FILE);
        try {
            Files.createDirectories(runDir);
            Files.writeString(
                    file, change.line() + System.lineSeparator(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record a host change in " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a sysctl in one read call. Not {@code Files.readString}: for a file of size 0 it reads the first byte
     * alone, and a /proc/sys file answers a read at a non-zero offset with end-of-file, so "10" reads as "1".
     */
    static String read(Path file) {
        try (var in = Files.newInputStream(file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static List<String> readLines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (NoSuchFileException gone) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping processes", e);
        }
    }
}
