package io.podnuma.testkit.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Plain file work on a cgroup v1 tree: one-write values, bottom-up removal, the tasks in a subtree. */
public final class CgroupTrees {

    private CgroupTrees() {}

    /** Writes a cgroup file: one write(2) of the whole value, no CREATE (a missing file is a missing cgroup). */
    public static void write(Path file, String value) throws IOException {
        // A lone newline is how an empty list is written (a zero-byte write would change nothing).
        Files.write(
                file, (value.isEmpty() ? "\n" : value).getBytes(StandardCharsets.US_ASCII), StandardOpenOption.WRITE);
    }

    public static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.US_ASCII);
    }

    /** Every directory of the subtree, {@code root} included, parents before children. */
    public static List<Path> directories(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isDirectory).toList();
        }
    }

    /** The pids in every {@code cgroup.procs} of the subtree. */
    public static List<Long> tasks(Path root) throws IOException {
        List<Long> out = new ArrayList<>();
        for (Path d : directories(root)) {
            Path procs = d.resolve("cgroup.procs");
            if (Files.isRegularFile(procs)) {
                read(procs)
                        .lines()
                        .map(String::strip)
                        .filter(l -> !l.isEmpty())
                        .forEach(l -> out.add(Long.parseLong(l)));
            }
        }
        return out;
    }

    /**
     * Removes a cgroup subtree bottom-up (rmdir is the only way to remove a cgroup, and only an empty one goes),
     * waiting a little for killed tasks, which leave their cgroup a moment after they died.
     *
     * @throws IOException naming the cgroup that would not go after two seconds
     */
    public static void removeTree(Path root) throws IOException, InterruptedException {
        List<Path> dirs = new ArrayList<>(directories(root));
        dirs.sort(Comparator.comparingInt(Path::getNameCount).reversed());
        for (Path d : dirs) {
            for (int attempt = 0; ; attempt++) {
                try {
                    Files.deleteIfExists(d);
                    break;
                } catch (IOException e) {
                    if (attempt == 100) {
                        throw new IOException("cannot remove cgroup " + d + ": " + e.getMessage(), e);
                    }
                    TimeUnit.MILLISECONDS.sleep(20);
                }
            }
        }
    }
}
