package io.podnuma.agent.checkpoint;

import io.podnuma.agent.engine.state.NodeState;
import java.util.Objects;

/**
 * What one checkpoint file holds, written and read as one unit.
 *
 * @param state everything the node has handed out
 * @param topology the machine the state was computed on
 * @param configHash identifies the policy in force when it was written (opaque here; see
 *     {@code AgentConfig#policyHash()}); a different hash at start means the policy changed under running pods
 */
public record Checkpoint(NodeState state, TopologyFingerprint topology, String configHash) {

    public Checkpoint {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(configHash, "configHash");
    }
}
