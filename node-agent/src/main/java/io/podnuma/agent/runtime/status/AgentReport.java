package io.podnuma.agent.runtime.status;

import io.podnuma.agent.report.NodeReport;
import io.podnuma.agent.report.nrt.SharedPoolRequests;
import java.util.Objects;

/**
 * What the runtime reports after each decision: the node's state for {@code NumaNodeState}, and what the
 * containers on the node shared pool ask for, so NodeResourceTopology can say honestly what is still available.
 */
public record AgentReport(NodeReport node, SharedPoolRequests sharedPool) {

    public AgentReport {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(sharedPool, "sharedPool");
    }
}
