package io.podnuma.agent.runtime.sync;

import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.pods.PodRecord;
import io.podnuma.agent.report.ConditionReason;
import io.podnuma.agent.runtime.core.NodeBook;
import io.podnuma.agent.runtime.host.HostBook;
import io.podnuma.agent.runtime.pin.KubeletWatch;
import io.podnuma.agent.runtime.pin.PlanApplier;
import io.podnuma.agent.runtime.pods.PodBook;
import io.podnuma.agent.runtime.recovery.Recovery;
import io.podnuma.agent.runtime.status.AgentStatus;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first full pod list: the {@link FullSync}'s decisions, then the checkpoint, the kubelet check, every container
 * cgroup, readiness and the reports. From now on pods are admitted and released one by one as they change.
 */
public final class FirstList {

    private static final Logger LOG = LoggerFactory.getLogger(FirstList.class);

    private final FullSync fullSync;
    private final NodeBook node;
    private final PodBook pods;
    private final HostBook host;
    private final Recovery recovery;
    private final KubeletWatch kubelet;
    private final PlanApplier pins;
    private final AgentStatus status;
    private final Runnable markReady;

    public FirstList(
            FullSync fullSync,
            NodeBook node,
            PodBook pods,
            HostBook host,
            Recovery recovery,
            KubeletWatch kubelet,
            PlanApplier pins,
            AgentStatus status,
            Runnable markReady) {
        this.fullSync = fullSync;
        this.node = node;
        this.pods = pods;
        this.host = host;
        this.recovery = recovery;
        this.kubelet = kubelet;
        this.pins = pins;
        this.status = status;
        this.markReady = markReady;
    }

    public void arrived(List<PodRecord> listed) {
        FullSync.Result synced = fullSync.run(node.state(), listed);
        NodeState state = synced.state();
        node.state(state);
        recovery.save(state);
        kubelet.refresh();
        pins.all(state);
        node.markSynced();
        markReady.run();
        status.condition(
                ConditionReason.SYNCED,
                "pods listed, " + state.pods().size() + " held, " + host.size() + " container cgroups reconciled");
        LOG.info(
                "full sync: {} pods on the node, {} held ({} admitted now, {} released), {} container cgroups",
                pods.size(),
                state.pods().size(),
                synced.admitted(),
                synced.released(),
                host.size());
        status.publish(state, pods);
    }
}
