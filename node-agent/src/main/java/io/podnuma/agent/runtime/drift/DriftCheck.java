package io.podnuma.agent.runtime.drift;

import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.events.EventReason;
import io.podnuma.agent.events.EventType;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.report.ConditionReason;
import io.podnuma.agent.report.ConditionType;
import io.podnuma.agent.runtime.core.Pin;
import io.podnuma.agent.runtime.core.PinWriter;
import io.podnuma.agent.runtime.core.RuntimeEvents;
import io.podnuma.agent.runtime.host.CpusetReads;
import io.podnuma.agent.runtime.host.HostBook;
import io.podnuma.agent.runtime.host.HostContainer;
import io.podnuma.agent.runtime.pin.PinTargets;
import io.podnuma.agent.runtime.pin.PlanApplier;
import io.podnuma.agent.runtime.pin.WriteGate;
import io.podnuma.agent.runtime.pods.PodBook;
import io.podnuma.agent.runtime.status.AgentStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads the containers' cpusets and writes back those someone else changed, reporting them in the {@code Drift}
 * condition. While the agent rebuilds, what it reads is a fresher record, not drift: nothing is decided yet.
 */
public final class DriftCheck {

    private final PinWriter pins;
    private final HostBook host;
    private final PodBook pods;
    private final PinTargets targets;
    private final PlanApplier applier;
    private final WriteGate gate;
    private final AgentMetrics metrics;
    private final RuntimeEvents events;
    private final AgentStatus status;

    public DriftCheck(
            PinWriter pins,
            HostBook host,
            PodBook pods,
            PinTargets targets,
            PlanApplier applier,
            WriteGate gate,
            AgentMetrics metrics,
            RuntimeEvents events,
            AgentStatus status) {
        this.pins = pins;
        this.host = host;
        this.pods = pods;
        this.targets = targets;
        this.applier = applier;
        this.gate = gate;
        this.metrics = metrics;
        this.events = events;
        this.status = status;
    }

    /** @return how many containers had drifted */
    public int run(NodeState state) {
        return run(state, CpusetReads.Tick.FULL);
    }

    /**
     * Reads the containers {@code reads} names (a container not read this tick was not written since it was last
     * read, see {@link CpusetReads}).
     *
     * @return how many containers had drifted
     */
    public int run(NodeState state, CpusetReads.Tick reads) {
        int drifted = 0;
        List<String> where = new ArrayList<>();
        for (HostContainer hc : host.all()) {
            if (!reads.reads(hc.path())) {
                continue;
            }
            Optional<Pin> actual = pins.readQuietly(hc.path());
            if (actual.isEmpty()) {
                host.forget(hc.path());
                continue;
            }
            if (gate.rebuilding()) {
                host.put(hc.withApplied(actual.get())); // a fresher record, not drift: nothing is decided
                continue;
            }
            if (hc.applied().isPresent() && !actual.get().equals(hc.applied().get())) {
                Pin want = targets.of(state, hc);
                if (actual.get().equals(want) || applier.runtimeMayHaveWritten(hc, actual.get())) {
                    // What is wanted, or the runtime's write of an update still on its way (the pin planned again
                    // once it is applied): no one else's change.
                    host.put(hc.withApplied(actual.get()));
                    continue;
                }
                drifted++;
                metrics.driftDetected();
                HostContainer seen = new HostContainer(hc.path(), hc.cgroup(), actual);
                host.put(seen);
                String message = "cpuset of " + hc.path() + " was changed behind podnuma's back to " + actual.get()
                        + "; restoring " + want;
                where.add(hc.path().toString());
                if (gate.mayWrite() && applier.one(state, hc.path(), want, PlanApplier.Cause.REPAIR)) {
                    pods.ref(hc.podUid())
                            .ifPresent(p ->
                                    events.onPod(p, EventType.WARNING, EventReason.CPUSET_DRIFT_REPAIRED, message));
                }
            }
        }
        if (drifted > 0) {
            status.condition(
                    ConditionReason.DRIFT_REPAIRED,
                    drifted + " container cpusets were rewritten by someone else and restored: " + where);
        } else if (reads.full() && status.has(ConditionType.DRIFT)) {
            status.condition(ConditionReason.NO_DRIFT, "every cpuset is as wanted");
        }
        return drifted;
    }
}
