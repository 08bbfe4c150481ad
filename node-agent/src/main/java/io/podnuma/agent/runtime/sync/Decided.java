package io.podnuma.agent.runtime.sync;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.runtime.core.NodeBook;
import io.podnuma.agent.runtime.pin.PlanApplier;
import io.podnuma.agent.runtime.pods.PodBook;
import io.podnuma.agent.runtime.recovery.Recovery;
import io.podnuma.agent.runtime.status.AgentStatus;
import java.util.Locale;

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

    /** How long each step of carrying a decision out took, in nanoseconds. */
    public record Steps(long checkpointNanos, long cgroupsNanos, long reportsNanos) {

        /** The steps in milliseconds, for a log line. */
        public String describe() {
            return String.format(
                    Locale.ROOT,
                    "checkpoint %.3f ms, cgroups %.3f ms, reports %.3f ms",
                    checkpointNanos / 1e6,
                    cgroupsNanos / 1e6,
                    reportsNanos / 1e6);
        }
    }

    /** @param poolBefore the node shared pool before the decision, to time its propagation to the containers */
    public Steps carryOut(CpuSet poolBefore) {
        NodeState state = node.state();
        pins.decided(poolBefore, state.sharedPool());
        long t0 = System.nanoTime();
        recovery.save(state);
        long t1 = System.nanoTime();
        pins.all(state);
        long t2 = System.nanoTime();
        status.publish(state, pods);
        return new Steps(t1 - t0, t2 - t1, System.nanoTime() - t2);
    }
}
