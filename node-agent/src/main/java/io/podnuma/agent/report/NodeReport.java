package io.podnuma.agent.report;

import io.fabric8.kubernetes.api.model.Condition;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.crds.v1alpha1.nodestate.AgentError;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything the node's {@code NumaNodeState} is made of.
 *
 * @param policyName the {@code NumaResourcePolicy} in force, empty when none is known
 * @param configHash the hash of the rendered configuration in force ({@code AgentConfig.policyHash()})
 * @param conditions the agent's conditions, as kept by a {@link ConditionBook}
 */
public record NodeReport(
        String nodeName,
        CpuTopology topology,
        NodeState state,
        Optional<String> policyName,
        String configHash,
        CpuSet reservedCpus,
        List<Condition> conditions,
        Optional<AgentError> lastError) {

    public NodeReport {
        Objects.requireNonNull(nodeName, "nodeName");
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(policyName, "policyName");
        Objects.requireNonNull(configHash, "configHash");
        Objects.requireNonNull(reservedCpus, "reservedCpus");
        conditions = List.copyOf(conditions);
        Objects.requireNonNull(lastError, "lastError");
    }
}
