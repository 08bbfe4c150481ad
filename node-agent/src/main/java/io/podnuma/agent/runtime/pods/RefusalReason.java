package io.podnuma.agent.runtime.pods;

import io.podnuma.agent.engine.node.RejectionReason;
import io.podnuma.agent.events.EventReason;
import java.util.Objects;

/** Why the agent refuses a pod: the engine said no, or the runtime could not read the pod's spec. */
public sealed interface RefusalReason {

    /** The reason as Events and logs spell it. */
    EventReason event();

    /** Whether {@code admission: Evict} evicts the pod: a spec the agent cannot read is no reason to evict. */
    boolean evictable();

    /** The engine refused the pod (the kubelet's reasons). */
    record Engine(RejectionReason reason) implements RefusalReason {
        public Engine {
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public EventReason event() {
            return EventReason.of(reason);
        }

        @Override
        public boolean evictable() {
            return true;
        }
    }

    /** The runtime's own reasons. */
    enum Runtime implements RefusalReason {
        /** The pod object cannot be read into the engine's pod (e.g. a malformed quantity). */
        POD_SPEC_UNREADABLE(EventReason.POD_SPEC_UNREADABLE);

        private final EventReason event;

        Runtime(EventReason event) {
            this.event = event;
        }

        @Override
        public EventReason event() {
            return event;
        }

        @Override
        public boolean evictable() {
            return false;
        }
    }
}
