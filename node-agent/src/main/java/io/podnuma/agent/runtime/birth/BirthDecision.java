package io.podnuma.agent.runtime.birth;

import io.podnuma.agent.runtime.core.Pin;
import java.util.Objects;

/** The agent's answer for a container about to be created. */
public sealed interface BirthDecision {

    /**
     * The container is born with {@code pin}.
     *
     * @param exclusive whether it holds exclusive CPUs (its CFS quota may be turned off)
     */
    record Pinned(Pin pin, boolean exclusive) implements BirthDecision {
        public Pinned {
            Objects.requireNonNull(pin, "pin");
        }
    }

    /** The container is born as the runtime makes it; the cgroup path decides later. */
    record Unpinned(BirthReason reason) implements BirthDecision {
        public Unpinned {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
