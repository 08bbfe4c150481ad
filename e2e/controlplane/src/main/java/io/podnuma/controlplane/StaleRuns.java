package io.podnuma.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Cleans up after test JVMs that were killed outright (a shutdown hook does not run on SIGKILL): their
 * etcd and apiserver would otherwise keep running and eat the CPU of every later run.
 *
 * <p>Each plane records {@code <pid> <executable>} of every child in {@value #PIDS} in its work directory,
 * which is named after the JVM's pid. A work directory whose JVM is gone has its recorded children stopped
 * (only if the pid still runs the recorded executable, so a reused pid is left alone) and is deleted. The test kit
 * keeps the node agents it starts the same way, under another prefix.
 */
public final class StaleRuns {

    public static final String PIDS = "children.pids";
    public static final String WORK_DIR_PREFIX = "controlplane-work-";

    private StaleRuns() {}

    /** Appends {@code child} to the record of {@code workDir}, whose name ends with the owning JVM's pid. */
    public static void record(Path workDir, ProcessHandle child) {
        String line = child.pid() + " " + child.info().command().orElse("?") + System.lineSeparator();
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
            List<String> parts = List.of(line.split(" ", 2));
            if (parts.size() != 2) {
                continue;
            }
            Optional<ProcessHandle> process = ProcessHandle.of(Long.parseLong(parts.get(0)));
            if (process.isPresent()
                    && process.get().info().command().map(parts.get(1)::equals).orElse(false)) {
                process.get().destroyForcibly();
                stopped++;
            }
        }
        return stopped;
    }
}
