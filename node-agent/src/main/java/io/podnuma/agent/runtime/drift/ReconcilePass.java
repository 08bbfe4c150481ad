package io.podnuma.agent.runtime.drift;

import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.runtime.core.NodeBook;
import io.podnuma.agent.runtime.host.CpusetReads;
import io.podnuma.agent.runtime.host.HostScan;
import io.podnuma.agent.runtime.pin.KubeletWatch;
import io.podnuma.agent.runtime.pin.PlanApplier;
import io.podnuma.agent.runtime.pods.PodBook;
import io.podnuma.agent.runtime.recovery.Recovery;
import io.podnuma.agent.runtime.status.AgentStatus;

/**
 * The reconcile tick: the kubelet check, a checkpoint write that failed retried, the pods waiting on the kubelet's
 * devices asked again, the cgroup tree read again (what {@link CpusetReads} says of it), drift repaired, every
 * container to its pin.
 * Before the first full sync too (the API server may be away): pins follow the checkpoint, nothing is released.
 */
public final class ReconcilePass {

    private final NodeBook node;
    private final PodBook pods;
    private final KubeletWatch kubelet;
    private final HostScan hostScan;
    private final DriftCheck drift;
    private final PlanApplier pins;
    private final Recovery recovery;
    private final AgentStatus status;
    private final CpusetReads reads;
    private final AgentMetrics metrics;
    private final WaitingPods waiting;

    /** The pods whose decision waits on the kubelet, to be asked again. */
    @FunctionalInterface
    public interface WaitingPods {
        void askAgain();
    }

    public ReconcilePass(
            NodeBook node,
            PodBook pods,
            KubeletWatch kubelet,
            HostScan hostScan,
            DriftCheck drift,
            PlanApplier pins,
            Recovery recovery,
            AgentStatus status,
            CpusetReads reads,
            AgentMetrics metrics,
            WaitingPods waiting) {
        this.node = node;
        this.pods = pods;
        this.kubelet = kubelet;
        this.hostScan = hostScan;
        this.drift = drift;
        this.pins = pins;
        this.recovery = recovery;
        this.status = status;
        this.reads = reads;
        this.metrics = metrics;
        this.waiting = waiting;
    }

    public void run() {
        AgentStatus.Mark before = status.mark();
        kubelet.refresh();
        CpusetReads.Tick tick = reads.next();
        if (tick.full()) {
            hostScan.rescan(); // between full ticks the watcher reports every container that comes or goes
        }
        NodeState state = node.state();
        recovery.catchUp(state);
        waiting.askAgain();
        state = node.state();
        int drifted = drift.run(state, tick);
        pins.all(state);
        // The tick runs every few seconds on every node: render the reports only when something changed.
        if (drifted > 0 || status.changedSince(before)) {
            status.publish(state, pods);
        }
        // Counted once the pass is over: whoever waits for passes sees every write this one would make.
        metrics.reconcilePassed();
    }
}
