package io.podnuma.agent.runtime.pin;

import io.podnuma.agent.engine.state.NodeState;

/**
 * What goes with each pass of cpuset writes on the host (the cpuset partitions): something that must be in place before
 * the containers' cpusets are written, and something that follows them.
 */
public interface AroundWrites {

    /** Nothing around the writes. */
    AroundWrites NONE = new AroundWrites() {
        @Override
        public void before(NodeState state) {}

        @Override
        public void after(NodeState state) {}
    };

    /** Before the containers' cpusets are written to {@code state}. */
    void before(NodeState state);

    /** After they are. */
    void after(NodeState state);
}
