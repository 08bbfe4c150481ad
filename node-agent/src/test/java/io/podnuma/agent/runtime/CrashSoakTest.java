package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.sysfs.FakeMachine;
import io.podnuma.agent.sysfs.FakeSysfsWriter;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import io.podnuma.logging.Level;
import io.podnuma.logging.LogFormat;
import io.podnuma.logging.Logs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-process crash soak ({@link CrashSoak}): a short version in the default run; the full one with
 * {@code -Dpodnuma.soak.injections=10000} ({@code scripts/soak crash}). {@code -Dpodnuma.soak.seed} replays a draw.
 */
class CrashSoakTest {

    /** The default run's: each kind once, then drawn by weight; a few seconds. */
    static final int SHORT = 100;

    static final String SHM_PREFIX = "podnuma-crash-soak-";

    static {
        // The full soak restarts the agent thousands of times, a few log lines each: scripts/soak passes "error".
        String level = System.getProperty("podnuma.soak.agentLog");
        if (level != null) {
            Logs.configure(Level.valueOf(level.toUpperCase(java.util.Locale.ROOT)), LogFormat.TEXT);
        }
    }

    @TempDir
    Path dir;

    private Path shmDir;

    @Test
    void faultsAtExactPointsBreakNoInvariant() throws Exception {
        int injections = Integer.getInteger("podnuma.soak.injections", SHORT);
        long seed = Long.getLong("podnuma.soak.seed", System.nanoTime());
        System.out.println("CrashSoakTest: " + injections + " injections, seed " + seed
                + " (replay with -Dpodnuma.soak.seed=" + seed + ")");
        Path state = stateDir();
        long start = System.nanoTime();
        CrashSoak.Result r = new CrashSoak(state, seed, machines()).run(injections);
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println(r.table());
        System.out.printf(
                "CrashSoakTest: %d injections in %.1f s (%.0f a second)%n",
                r.tally().injections(), millis / 1000.0, r.tally().injections() * 1000.0 / Math.max(1, millis));
        assertThat(r.violations()).as("seed %d", seed).isEmpty();
        assertThat(r.tally().injections()).isEqualTo(injections);
        if (injections >= CrashSoak.KINDS.size() * 2) {
            assertThat(r.tally().neverInjected(CrashSoak.KINDS))
                    .as("kinds never injected (seed %d)", seed)
                    .isEmpty();
            assertThat(r.tally().neverReached())
                    .as("crashes that never struck at their armed point (seed %d)", seed)
                    .isEmpty();
        }
        try (var left = Files.list(state)) {
            assertThat(left.map(p -> p.getFileName().toString()).filter(n -> n.contains(".tmp-")))
                    .as("temp files a crash left are removed by the next start")
                    .isEmpty();
        }
    }

    /**
     * The state directory: on tmpfs where there is one, so the checkpoint's fsyncs (a real CheckpointStore makes two a
     * write) cost what they cost the agent on a node's local disk at most, not a shared VM disk's latency.
     */
    private Path stateDir() throws Exception {
        Path shm = Path.of("/dev/shm");
        if (!Files.isDirectory(shm) || !Files.isWritable(shm)) {
            return Files.createDirectories(dir.resolve("state"));
        }
        // A killed run leaves its directory behind: the next run removes it.
        try (var old = Files.list(shm)) {
            for (Path p : old.filter(p -> p.getFileName().toString().startsWith(SHM_PREFIX))
                    .toList()) {
                deleteTree(p);
            }
        }
        shmDir = Files.createTempDirectory(shm, SHM_PREFIX);
        return shmDir;
    }

    @AfterEach
    void removeStateDir() throws Exception {
        if (shmDir != null) {
            deleteTree(shmDir);
        }
    }

    private static void deleteTree(Path root) throws Exception {
        try (var all = Files.walk(root)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** One small two-socket machine with SMT, and the same with CPU 7 offline (its sibling 15 left alone). */
    private List<CpuTopology> machines() throws Exception {
        FakeMachine full = machine("crash-2s-ht", CpuSet.empty());
        FakeMachine offlined = machine("crash-2s-ht-cpu7-offline", CpuSet.of(7));
        return List.of(read(full), read(offlined));
    }

    private static FakeMachine machine(String name, CpuSet offline) {
        return new FakeMachine(name, 2, 4, 2, 1, 1, 16L * 1024 * 1024, 0, 0, 10, 21, offline, 0, 0, 0);
    }

    private CpuTopology read(FakeMachine m) throws Exception {
        Path root = dir.resolve(m.name());
        FakeSysfsWriter.write(m, root);
        return new SysfsTopologyReader(root).read();
    }
}
