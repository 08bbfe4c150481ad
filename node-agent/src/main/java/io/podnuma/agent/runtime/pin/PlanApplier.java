package io.podnuma.agent.runtime.pin;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupWriteException;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.config.ExclusiveCpuQuota;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.events.EventReason;
import io.podnuma.agent.events.EventType;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.runtime.core.Pin;
import io.podnuma.agent.runtime.core.PinWriter;
import io.podnuma.agent.runtime.core.RuntimeEvents;
import io.podnuma.agent.runtime.host.HostBook;
import io.podnuma.agent.runtime.host.HostContainer;
import io.podnuma.agent.runtime.loop.RetryBackoff;
import io.podnuma.agent.runtime.pods.PodBook;
import io.podnuma.agent.runtime.status.AgentErrorReason;
import io.podnuma.agent.runtime.status.AgentStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Performs {@link PinPlan}s on the host through the {@link PinWriter} while the {@link WriteGate} allows it, and
 * books what happened: the host book, failures (their CPUs stay stale, a retry is queued), metrics and Events.
 */
public final class PlanApplier {

    private static final Logger LOG = LoggerFactory.getLogger(PlanApplier.class);

    /** Why a single container is written: {@link #REPAIR} counts as a repaired drift. */
    public enum Cause {
        PIN,
        REPAIR
    }

    private final PinWriter pins;
    private final HostBook host;
    private final PodBook pods;
    private final PinTargets targets;
    private final WriteGate gate;
    private final RetryBackoff retry;
    private final AgentMetrics metrics;
    private final RuntimeEvents events;
    private final AgentStatus status;
    private final ExclusiveCpuQuota quota;
    private final PoolPropagation poolPropagation;
    /** Per container, the last cpuset written since {@link #drainWritten}: what the runtime is told. */
    private final Map<ContainerId, Pin> written = new LinkedHashMap<>();
    /** CPUs containers may still be given by the runtime's unconfirmed updates (NRI); none without NRI. */
    private volatile Supplier<Map<ContainerId, CpuSet>> runtimePending = Map::of;
    /** The CPUs {@link #runtimePending} kept from others at the last plan: no container is born on them either. */
    private CpuSet pendingCpus = CpuSet.empty();

    private AroundWrites around = AroundWrites.NONE;

    public PlanApplier(
            PinWriter pins,
            HostBook host,
            PodBook pods,
            PinTargets targets,
            WriteGate gate,
            RetryBackoff retry,
            AgentMetrics metrics,
            RuntimeEvents events,
            AgentStatus status,
            ExclusiveCpuQuota quota) {
        this.pins = pins;
        this.host = host;
        this.pods = pods;
        this.targets = targets;
        this.gate = gate;
        this.retry = retry;
        this.metrics = metrics;
        this.events = events;
        this.status = status;
        this.quota = quota;
        this.poolPropagation = new PoolPropagation(metrics);
    }

    /** What goes with each pass of writes (the cpuset partitions; set once, before the agent starts). */
    public void around(AroundWrites value) {
        this.around = value;
    }

    /** Where the runtime's unconfirmed updates are read from (set once, before the agent starts). */
    public void runtimePending(Supplier<Map<ContainerId, CpuSet>> pending) {
        this.runtimePending = pending;
    }

    /** The CPUs the runtime's unconfirmed updates may still put where they must not stay (as of the last plan). */
    public CpuSet pendingCpus() {
        return pendingCpus;
    }

    /**
     * The runtime has answered its updates of {@code containers}: what their cgroups hold now is read again (an
     * update may have carried a cpuset that a later write of ours had already replaced), then every container is
     * planned again, so one that got a stale set gives it up before anyone else gains from it.
     */
    public void runtimeApplied(NodeState state, Collection<ContainerId> containers) {
        Set<ContainerId> ids = new HashSet<>(containers);
        for (HostContainer hc : host.all()) {
            if (ids.contains(hc.cgroup().containerId())) {
                Optional<Pin> now = pins.readQuietly(hc.path());
                if (now.isPresent()) {
                    host.put(hc.withApplied(now.get()));
                }
            }
        }
        all(state);
    }

    /**
     * Whether {@code actual} is what the runtime may be writing into the container now (an update of its own or of
     * ours it has not applied yet): not someone else's change; once the runtime has applied it, the container is read
     * and planned again.
     */
    public boolean runtimeMayHaveWritten(HostContainer hc, Pin actual) {
        CpuSet may = runtimePending.get().get(hc.cgroup().containerId());
        return may != null && actual.cpus().isSubsetOf(may);
    }

    /** The cpusets written since the last call, last one per container, in the order written. */
    public Map<ContainerId, Pin> drainWritten() {
        if (written.isEmpty()) {
            return Map.of();
        }
        Map<ContainerId, Pin> copy = new LinkedHashMap<>(written);
        written.clear();
        return copy;
    }

    /** Times the change of the node shared pool a decision made. */
    public void decided(CpuSet poolBefore, CpuSet poolAfter) {
        poolPropagation.decided(poolBefore, poolAfter, System.nanoTime());
    }

    /** Every host container to its wanted cpuset ({@link PinPlan#all}). */
    public void all(NodeState state) {
        if (!gate.mayWrite()) {
            return;
        }
        // In path order; each path rendered once (a comparator rendering both sides costs more than the pass).
        TreeMap<String, HostContainer> byPath = new TreeMap<>();
        for (HostContainer hc : host.view()) {
            byPath.put(hc.path().toString(), hc);
        }
        SequencedMap<CgroupPath, Pin> want = new LinkedHashMap<>();
        for (HostContainer hc : byPath.values()) {
            want.put(hc.path(), targets.of(state, hc));
        }
        if (gate.writes()) {
            SequencedMap<CgroupPath, Pin> bounded = want;
            if (gate.givesUpOnly()) {
                bounded = new LinkedHashMap<>();
                for (Map.Entry<CgroupPath, Pin> e : want.entrySet()) {
                    bounded.put(e.getKey(), givingUpOnly(e.getKey(), e.getValue()));
                }
            }
            around.before(state);
            PinPlan plan = plan(state);
            plan.all(bounded, new HostPerformer(state, Cause.PIN));
            commit(plan);
            around.after(state);
        }
        if (poolPropagation.awaiting()) {
            poolPropagation.applied(state.sharedPool(), heldOnSharedPool(state, want), System.nanoTime());
        }
    }

    /** The containers of one pod to their wanted cpusets. */
    public void pod(NodeState state, String uid) {
        if (!gate.mayWrite()) {
            return;
        }
        boolean writes = gate.writes();
        if (writes) {
            around.before(state);
        }
        for (HostContainer hc : host.all()) {
            if (hc.podUid().equals(uid)) {
                one(state, hc.path(), targets.of(state, hc), Cause.PIN);
            }
        }
        if (writes) {
            around.after(state);
        }
    }

    /**
     * Whether the container holds what a pass wants for it now (within what the gate allows: while it gives up only,
     * what of the target it held); false while nothing may be written.
     */
    public boolean holdsWanted(NodeState state, HostContainer hc) {
        if (!gate.writes()) {
            return false;
        }
        Optional<Pin> now = host.get(hc.path()).flatMap(HostContainer::applied);
        return now.isPresent() && now.get().equals(givingUpOnly(hc.path(), targets.of(state, hc)));
    }

    /** One container to its wanted cpuset; whether it has it now. */
    public boolean wanted(NodeState state, HostContainer hc) {
        return one(state, hc.path(), targets.of(state, hc), Cause.PIN);
    }

    /**
     * One container to {@code pin}, outside the passes.
     *
     * @return whether the container has {@code pin} now
     */
    public boolean one(NodeState state, CgroupPath path, Pin pin, Cause cause) {
        if (!gate.writes()) {
            return false;
        }
        PinPlan plan = plan(state);
        boolean done = plan.one(path, givingUpOnly(path, pin), new HostPerformer(state, cause));
        commit(plan);
        return done;
    }

    /** {@code target}, or while the gate allows giving up only ({@link WriteMode#FOLLOWING}) what of it the container holds now. */
    private Pin givingUpOnly(CgroupPath path, Pin target) {
        if (!gate.givesUpOnly()) {
            return target;
        }
        return host.get(path)
                .flatMap(HostContainer::applied)
                .map(now -> now.narrowedTo(target))
                .orElse(target);
    }

    /**
     * The node leaves podnuma: every container gets every CPU and memory node back.
     *
     * @return how many containers have them now
     */
    public int restore(NodeState state, Pin everything) {
        host.clearStale();
        gate.restore();
        int restored = 0;
        for (HostContainer hc : host.all()) {
            if (gate.mayWrite() && one(state, hc.path(), everything, Cause.PIN)) {
                restored++;
            }
        }
        return restored;
    }

    /** A plan on what the host book knows now. */
    private PinPlan plan(NodeState state) {
        Map<CgroupPath, Optional<Pin>> applied = new HashMap<>();
        Set<CgroupPath> decided = new HashSet<>();
        for (HostContainer hc : host.view()) {
            applied.put(hc.path(), hc.applied());
            if (host.decided(hc.path())) {
                decided.add(hc.path());
            }
        }
        Map<ContainerId, CpuSet> runtime = runtimePending.get();
        Map<CgroupPath, CpuSet> pending = new HashMap<>();
        CpuSet.Builder kept = CpuSet.builder();
        if (!runtime.isEmpty()) {
            for (HostContainer hc : host.view()) {
                CpuSet may = runtime.get(hc.cgroup().containerId());
                if (may != null) {
                    CpuSet excess = may.difference(targets.of(state, hc).cpus());
                    if (!excess.isEmpty()) {
                        pending.put(hc.path(), excess);
                        kept.addAll(excess);
                    }
                }
            }
        }
        pendingCpus = kept.build();
        return new PinPlan(applied, decided, host.stale(), pending, state.sharedPool(), gate.planMode());
    }

    private void commit(PinPlan plan) {
        for (CgroupPath gone : plan.gone()) {
            host.forget(gone);
        }
        for (Map.Entry<CgroupPath, Optional<Pin>> e : plan.applied().entrySet()) {
            host.get(e.getKey()).ifPresent(hc -> {
                if (!hc.applied().equals(e.getValue()) && e.getValue().isPresent()) {
                    host.put(hc.withApplied(e.getValue().get()));
                }
            });
        }
        for (CgroupPath p : plan.decided()) {
            host.decide(p);
        }
        Map<CgroupPath, CpuSet> stale = plan.stale();
        for (CgroupPath p : host.paths()) {
            host.stale(p, stale.getOrDefault(p, CpuSet.empty()));
        }
    }

    /** What each container that should run on the node shared pool holds now (those gone meanwhile left out). */
    private List<CpuSet> heldOnSharedPool(NodeState state, Map<CgroupPath, Pin> want) {
        List<CpuSet> held = new ArrayList<>();
        for (Map.Entry<CgroupPath, Pin> e : want.entrySet()) {
            Optional<HostContainer> now = host.get(e.getKey());
            if (now.isPresent() && e.getValue().cpus().equals(state.sharedPool())) {
                held.add(now.get().applied().map(Pin::cpus).orElse(CpuSet.empty()));
            }
        }
        return held;
    }

    /** A step on the host's cgroup files, with its failure booked as the agent reports it. */
    private final class HostPerformer implements PinPlan.Performer {
        private final NodeState state;
        private final Cause cause;

        HostPerformer(NodeState state, Cause cause) {
            this.state = state;
            this.cause = cause;
        }

        @Override
        public void blocked(CgroupPath path, CpuSet cpus) {
            LOG.warn("not giving {} CPUs {} yet: another container could not give them up", path, cpus);
            retry.schedule();
        }

        @Override
        public PinPlan.Outcome perform(PinStep step) {
            HostContainer hc = host.get(step.path()).orElseThrow();
            boolean written = false;
            try {
                pins.apply(step.path(), step.pin());
                written = true;
                PlanApplier.this.written.remove(hc.cgroup().containerId());
                PlanApplier.this.written.put(hc.cgroup().containerId(), step.pin());
                if (quota == ExclusiveCpuQuota.DISABLE && targets.exclusive(state, hc)) {
                    pins.removeQuota(step.path());
                }
                if (cause == Cause.REPAIR) {
                    metrics.driftRepaired();
                }
                return PinPlan.Outcome.WRITTEN;
            } catch (CgroupWriteException e) {
                metrics.cgroupWriteFailed();
                if (pins.readQuietly(step.path()).isEmpty()) {
                    return PinPlan.Outcome.GONE; // the container is gone; nothing to pin
                }
                status.error(AgentErrorReason.CPUSET_WRITE_FAILED, e.getMessage());
                pods.ref(hc.podUid())
                        .ifPresent(p ->
                                events.onPod(p, EventType.WARNING, EventReason.CPUSET_WRITE_FAILED, e.getMessage()));
                LOG.warn("{} (retrying in {} ms)", e.getMessage(), retry.delayMillis());
                retry.writeFailed();
                retry.schedule();
                return written ? PinPlan.Outcome.QUOTA_FAILED : PinPlan.Outcome.FAILED;
            }
        }
    }
}
