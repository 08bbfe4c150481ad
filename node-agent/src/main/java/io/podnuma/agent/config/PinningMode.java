package io.podnuma.agent.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How containers get their CPUs and memory nodes. Whatever the mode, the decision is the engine's, made at bind time;
 * the mode only says which path applies it first. The cgroup writer always runs: it repairs drift and applies
 * shared-pool changes.
 */
public enum PinningMode {
    /** {@link #NRI} while the runtime's NRI socket answers, otherwise {@link #CGROUP} without a warning. */
    AUTO,
    /**
     * The agent is an NRI plugin: the runtime asks it at CreateContainer and the container is born pinned; what NRI
     * did not pin (the agent was disconnected) the cgroup writer pins. An absent socket is retried and reported.
     */
    NRI,
    /** The agent never connects to NRI: a container is pinned after its creation, by writing its cgroup. */
    CGROUP;

    /** The value in the file, a flag or a variable: {@code auto}, {@code nri} or {@code cgroup}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException saying what is allowed; the loader adds the setting and the value */
    static PinningMode parse(String value) {
        for (PinningMode m : values()) {
            if (m.wireName().equals(value)) {
                return m;
            }
        }
        throw new IllegalArgumentException(
                "allowed " + Arrays.stream(values()).map(PinningMode::wireName).collect(Collectors.joining(", ")));
    }
}
