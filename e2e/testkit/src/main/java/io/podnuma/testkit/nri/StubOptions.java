package io.podnuma.testkit.nri;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The Go reference plugin's identity and answer: it registers as {@code <index>-<name>} and answers every
 * CreateContainer with cpuset {@code cpus}/{@code mems}, after sleeping {@code delay} (a slow plugin when longer than
 * the runtime's request timeout).
 */
public record StubOptions(String index, String name, String cpus, String mems, Duration delay) {

    public StubOptions {
        Objects.requireNonNull(index, "index");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(cpus, "cpus");
        Objects.requireNonNull(mems, "mems");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative: " + delay);
        }
    }

    /** {@code 90-gostub} (index 90 as nri-plugins uses), answering with {@code cpus}/{@code mems} at once. */
    public static StubOptions answering(String cpus, String mems) {
        return new StubOptions("90", "gostub", cpus, mems, Duration.ZERO);
    }

    public StubOptions withDelay(Duration d) {
        return new StubOptions(index, name, cpus, mems, d);
    }

    /** The name the runtime knows the plugin by. */
    public String pluginName() {
        return index + "-" + name;
    }

    List<String> args() {
        return List.of(
                "--index", index, "--name", name, "--cpus", cpus, "--mems", mems, "--delay", delay.toMillis() + "ms");
    }
}
