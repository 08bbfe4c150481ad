package io.podnuma.bench;

import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.sysfs.SysfsException;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine every benchmark runs on: the captured 2-socket, 8-NUMA, 384-CPU sysfs tree, read from the
 * node agent's test fixtures so that benchmarks and engine tests share one copy.
 */
public final class BenchMachine {

    /** System property with the sysfs root to use instead of the fixture. */
    public static final String SYSFS_PROPERTY = "podnuma.bench.sysfs";

    static final String FIXTURE = "node-agent/src/test/resources/sysfs/bench-2s-8numa-384";

    private BenchMachine() {}

    public static CpuTopology topology() {
        Path root = sysfsRoot();
        try {
            return new SysfsTopologyReader(root).read();
        } catch (SysfsException e) {
            throw new IllegalStateException(
                    "cannot read the benchmark machine from " + root + ": " + e.getMessage(), e);
        }
    }

    /**
     * The property's directory, else the fixture found from the working directory upwards (JMH forks start in
     * the directory the benchmark was launched from: the repository root or {@code benchmarks/}).
     */
    public static Path sysfsRoot() {
        String configured = System.getProperty(SYSFS_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            Path root = Path.of(configured);
            if (!Files.isDirectory(root)) {
                throw new IllegalStateException("-D" + SYSFS_PROPERTY + "=" + configured
                        + " is not a directory: give a sysfs root such as " + FIXTURE);
            }
            return root;
        }
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(FIXTURE);
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("benchmark machine not found: no " + FIXTURE + " above " + start
                + "; run from the repository or set -D" + SYSFS_PROPERTY + "=<sysfs root>");
    }
}
