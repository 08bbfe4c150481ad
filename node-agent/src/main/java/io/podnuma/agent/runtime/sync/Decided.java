package io.podnuma.agent.runtime.sync;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.runtime.core.NodeBook;
import io.podnuma.agent.runtime.pin.PlanApplier;
import io.podnuma.agent.runtime.pods.PodBook;
import io.podnuma.agent.runtime.recovery.Recovery;
import io.podnuma.agent.runtime.status.AgentStatus;

/**
 * What follows a decision that changed the node state, in this order: the checkpoint (so a crash after a cgroup
 * write never forgets an assignment), then the cgroups, then the reports.
 */
public final class Decided {

    private final NodeBook node;
    private final PodBook pods;
    private final Recovery recovery;
    private final PlanApplier pins;
    private final AgentStatus status;

    public Decided(NodeBook node, PodBook pods, Recovery recovery, PlanApplier pins, AgentStatus status) {
        this.node = node;
        this.pods = pods;
        this.recovery = recovery;
        this.pins = pins;
        this.status = status;
    }

    /** @param poolBefore the node shared pool before the decision, to time its propagation to the containers */
    public void carryOut(CpuSet poolBefore) {
        NodeState state = node.state();
        pins.decided(poolBefore, state.sharedPool());
        recovery.save(state);
        pins.all(state);
        status.publish(state, pods);
    }
}
