package io.podnuma.agent.runtime.drift;

import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.runtime.NodeBook;
import io.podnuma.agent.runtime.host.HostScan;
import io.podnuma.agent.runtime.pin.KubeletWatch;
import io.podnuma.agent.runtime.pin.PlanApplier;
import io.podnuma.agent.runtime.pods.PodBook;
import io.podnuma.agent.runtime.recovery.Recovery;
import io.podnuma.agent.runtime.status.AgentStatus;

/**
 * The reconcile tick: the kubelet check, a checkpoint write that failed retried, the cgroup tree read again, drift
 * repaired, every container to its pin.
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

    public ReconcilePass(
            NodeBook node,
            PodBook pods,
            KubeletWatch kubelet,
            HostScan hostScan,
            DriftCheck drift,
            PlanApplier pins,
            Recovery recovery,
            AgentStatus status) {
        this.node = node;
        this.pods = pods;
        this.kubelet = kubelet;
        this.hostScan = hostScan;
        this.drift = drift;
        this.pins = pins;
        this.recovery = recovery;
        this.status = status;
    }

    public void run() {
        AgentStatus.Mark before = status.mark();
        kubelet.refresh();
        hostScan.rescan();
        NodeState state = node.state();
        recovery.catchUp(state);
        int drifted = drift.run(state);
        pins.all(state);
        // The tick runs every few seconds on every node: render the reports only when something changed.
        if (drifted > 0 || status.changedSince(before)) {
            status.publish(state, pods);
        }
    }
}
