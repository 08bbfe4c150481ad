package io.podnuma.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Cleans up after test JVMs that were killed outright (a shutdown hook does not run on SIGKILL): their
 * etcd and apiserver would otherwise keep running and eat the CPU of every later run.
 *
 * <p>Each plane records {@code <pid> <start time> <executable>} of every child in {@value #PIDS} in its work
 * directory, which is named after the JVM's pid. A work directory whose JVM is gone has its recorded children stopped
 * (only if the pid still runs the recorded executable, started at the recorded time, so a reused pid is left alone)
 * and is deleted. The test kit keeps the node agents it starts the same way, under another prefix.
 */
public final class StaleRuns {

    public static final String PIDS = "children.pids";
    public static final String WORK_DIR_PREFIX = "controlplane-work-";

    private static final long UNKNOWN_START = -1;

    private StaleRuns() {}

    /** Appends {@code child} to the record of {@code workDir}, whose name ends with the owning JVM's pid. */
    public static void record(Path workDir, ProcessHandle child) {
        String line = child.pid() + " " + startedAt(child) + " "
                + child.info().command().orElse("?") + System.lineSeparator();
        try {
            Files.createDirectories(workDir);
            Files.writeString(workDir.resolve(PIDS), line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record child pid in " + workDir + ": " + e.getMessage(), e);
        }
    }

    /** Stops the children of dead JVMs' planes under {@code baseDir}; returns how many it stopped. */
    static int reap(Path baseDir) {
        return reap(baseDir, WORK_DIR_PREFIX);
    }

    /**
     * Stops the recorded children of every work directory {@code <prefix><pid>} under {@code baseDir} whose JVM is
     * gone, and deletes the directory; returns how many processes it stopped.
     */
    public static int reap(Path baseDir, String prefix) {
        return reap(baseDir, prefix, dir -> {});
    }

    /**
     * Like {@link #reap(Path, String)}, and runs {@code afterStop} on each dead run's directory once its recorded
     * children are stopped and before it is deleted: the place to undo what those children did to the host.
     */
    public static int reap(Path baseDir, String prefix, Consumer<Path> afterStop) {
        if (!Files.isDirectory(baseDir)) {
            return 0;
        }
        int stopped = 0;
        try (Stream<Path> dirs = Files.list(baseDir)) {
            for (Path dir : dirs.filter(d -> d.getFileName().toString().startsWith(prefix))
                    .toList()) {
                Optional<Long> owner = ownerPid(dir, prefix);
                if (owner.isEmpty()
                        || ProcessHandle.of(owner.get())
                                .map(ProcessHandle::isAlive)
                                .orElse(false)) {
                    continue;
                }
                stopped += stopRecorded(dir);
                afterStop.accept(dir);
                LocalControlPlane.deleteRecursively(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + baseDir + ": " + e.getMessage(), e);
        }
        return stopped;
    }

    private static Optional<Long> ownerPid(Path dir, String prefix) {
        try {
            return Optional.of(Long.parseLong(dir.getFileName().toString().substring(prefix.length())));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static int stopRecorded(Path dir) throws IOException {
        Path pids = dir.resolve(PIDS);
        if (!Files.isRegularFile(pids)) {
            return 0;
        }
        int stopped = 0;
        for (String line : Files.readAllLines(pids)) {
            Optional<Recorded> recorded = Recorded.parse(line);
            if (recorded.isEmpty()) {
                continue;
            }
            Optional<ProcessHandle> process = ProcessHandle.of(recorded.get().pid());
            if (process.isPresent() && recorded.get().isStill(process.get())) {
                process.get().destroyForcibly();
                stopped++;
            }
        }
        return stopped;
    }

    private static long startedAt(ProcessHandle p) {
        return p.info().startInstant().map(Instant::toEpochMilli).orElse(UNKNOWN_START);
    }

    /**
     * One line of the record: {@code <pid> <start, epoch ms> <executable>}, or {@code <pid> <executable>} as older
     * runs wrote it. The start time tells a recorded child from a later process that got its pid and runs the same
     * executable (another JVM's java, say), which the executable alone cannot.
     */
    private record Recorded(long pid, long startMillis, String command) {

        static Optional<Recorded> parse(String line) {
            String[] parts = line.split(" ", 3);
            try {
                if (parts.length == 3 && parts[1].matches("-?\\d+")) {
                    return Optional.of(new Recorded(Long.parseLong(parts[0]), Long.parseLong(parts[1]), parts[2]));
                }
                int space = line.indexOf(' ');
                return space < 0
                        ? Optional.empty()
                        : Optional.of(new Recorded(
                                Long.parseLong(line.substring(0, space)), UNKNOWN_START, line.substring(space + 1)));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }

        boolean isStill(ProcessHandle p) {
            return p.info().command().map(command::equals).orElse(false)
                    && (startMillis == UNKNOWN_START || startedAt(p) == startMillis);
        }
    }
}
