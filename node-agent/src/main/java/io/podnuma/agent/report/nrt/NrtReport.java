package io.podnuma.agent.report.nrt;

import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.state.NodeState;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything the {@code NodeResourceTopology} is rendered from.
 *
 * @param nodeName the node (and object) name
 * @param nodeUid the Node's UID when known, for the owner reference
 * @param allocator the machine, the configuration (policies, reserved CPUs and memory)
 * @param state what pods hold now
 * @param sharedRequests what containers on the node shared pool ask for
 */
public record NrtReport(
        String nodeName,
        Optional<String> nodeUid,
        NodeAllocator allocator,
        NodeState state,
        SharedPoolRequests sharedRequests) {

    public NrtReport {
        Objects.requireNonNull(nodeName, "nodeName");
        Objects.requireNonNull(nodeUid, "nodeUid");
        Objects.requireNonNull(allocator, "allocator");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(sharedRequests, "sharedRequests");
    }
}
