package io.podnuma.testkit.agent;

import io.podnuma.testkit.Repository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The node agent's JVM flags, read from {@code node-agent/jvm.flags}: the one file the launcher, the Helm chart and
 * the agent image take them from. One flag a line; blank lines and {@code #} comments are skipped.
 */
public final class JvmFlags {

    /** The file, relative to the repository root. */
    public static final String FILE = "node-agent/jvm.flags";

    private static final String UNLOCK_DIAGNOSTIC = "-XX:+UnlockDiagnosticVMOptions";
    private static final String RELOCATION_MODE = "-XX:ArchiveRelocationMode=";

    private JvmFlags() {}

    /** The flags the DaemonSet runs the agent with. */
    public static List<String> daemonSet() {
        return read(Repository.resolve(FILE));
    }

    /**
     * The flags of a flags file.
     *
     * @throws UncheckedIOException naming the file when it cannot be read
     * @throws IllegalArgumentException naming the line when one holds more than a flag
     */
    public static List<String> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the agent's JVM flags " + file + ": " + e.getMessage(), e);
        }
        return parse(lines, file.toString());
    }

    /**
     * The flags that map the AOT cache at {@code file} in place, as the agent image's entrypoint does: the diagnostic
     * {@code ArchiveRelocationMode=0} maps it at the address it was dumped for, where the default since JDK 20 maps it
     * at a random address and patches every pointer, which turns its pages into private anonymous copies charged to
     * the agent's memory cgroup (measured with 110 pods: RssAnon 96 MiB relocated, 74 MiB in place, VmRSS the same).
     * The cost is the archive's fixed address (less address-space randomisation for the class metadata); when that
     * address is taken the JVM relocates anyway.
     *
     * <p>The diagnostic {@code -AOTReplayTraining} leaves out the replay of the training run's method profiles. With
     * the replay, C1 compiled what the training ran hot before the agent was ready: on the real node (one CPU) the
     * start cost 1.84-2.01 s of CPU and ready took 4 s, against 1.22-1.36 s and 1.4-2.2 s without it. The price: under
     * the cache, the process bench's shared-pool shrink/grow p99 was 129-395 ms in three runs without the replay and
     * 64/94 ms in one with it (issue 13, open).
     */
    public static List<String> mappingAotCache(String file) {
        return List.of("-XX:AOTCache=" + file, UNLOCK_DIAGNOSTIC, RELOCATION_MODE + "0", "-XX:-AOTReplayTraining");
    }

    /**
     * {@code flags} without those that name or map a cache of classes (the AOT cache the agent image's entrypoint
     * maps, a CDS archive): for a JVM with another class path (the idle-JVM baselines) and for a training run, which
     * writes the cache instead.
     */
    public static List<String> withoutClassCache(List<String> flags) {
        List<String> kept =
                new ArrayList<>(flags.stream().filter(f -> !isClassCacheFlag(f)).toList());
        int unlock = kept.lastIndexOf(UNLOCK_DIAGNOSTIC);
        if (unlock >= 0 && flags.stream().anyMatch(f -> f.startsWith(RELOCATION_MODE))) {
            // The unlock {@link #mappingAotCache} added for the relocation mode: the last one, after jvm.flags' own.
            kept.remove(unlock);
        }
        return List.copyOf(kept);
    }

    static boolean isClassCacheFlag(String flag) {
        return flag.startsWith("-XX:AOTCache")
                || flag.startsWith("-XX:AOTMode=")
                || flag.startsWith(RELOCATION_MODE)
                || flag.equals("-XX:-AOTReplayTraining")
                || flag.equals("-XX:+AutoCreateSharedArchive")
                || flag.startsWith("-XX:SharedArchiveFile=");
    }

    static List<String> parse(List<String> lines, String source) {
        return java.util.stream.IntStream.range(0, lines.size())
                .mapToObj(i -> flag(lines.get(i), source, i + 1))
                .filter(f -> !f.isEmpty())
                .toList();
    }

    private static String flag(String line, String source, int number) {
        int hash = line.indexOf('#');
        String flag = (hash < 0 ? line : line.substring(0, hash)).strip();
        if (!flag.isEmpty() && (!flag.startsWith("-") || flag.chars().anyMatch(Character::isWhitespace))) {
            throw new IllegalArgumentException(source + " line " + number + ": \"" + line.strip()
                    + "\" is not one flag (one flag a line, starting with -)");
        }
        return flag;
    }
}
