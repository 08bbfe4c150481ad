package io.podnuma.agent.runtime.pin;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.runtime.core.Pin;
import java.util.Objects;

/**
 * One cpuset write of a {@link PinPlan}.
 *
 * @param pin what to write
 * @param target what the container should end with: {@code pin} itself, or what {@code pin} narrows towards, or a
 *     superset of {@code pin} when CPUs another container still holds were left out
 */
public record PinStep(CgroupPath path, Pin pin, Pin target, Kind kind) {

    /** Where in the plan the step comes from. */
    public enum Kind {
        /** The first pass: the container keeps only what it holds and should keep. */
        GIVE_UP,
        /** A later pass: the container gets its target; nothing it gains is still held by one that must leave it. */
        GAIN,
        /** What is left when no pass makes progress (containers swapping CPUs): written as it is. */
        SWAP,
        /** A single container, outside the passes (a new container, one pod, a repair, the restore). */
        SINGLE
    }

    public PinStep {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(pin, "pin");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(kind, "kind");
    }
}
