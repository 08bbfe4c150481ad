package io.podnuma.agent.runtime;

import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.watch.FoundContainer;
import io.podnuma.agent.checkpoint.CheckpointStore;
import io.podnuma.agent.checkpoint.TopologyFingerprint;
import io.podnuma.agent.config.ExclusiveCpuQuota;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.events.EventReason;
import io.podnuma.agent.events.EventType;
import io.podnuma.agent.kubelet.KubeletCheck;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.podresources.PodResourcesSnapshot;
import io.podnuma.agent.pods.PodFeed;
import io.podnuma.agent.pods.PodMapper;
import io.podnuma.agent.pods.PodRecord;
import io.podnuma.agent.pods.PodSource;
import io.podnuma.agent.report.ConditionBook;
import io.podnuma.agent.runtime.admission.AdmissionDecision;
import io.podnuma.agent.runtime.admission.Admissions;
import io.podnuma.agent.runtime.admission.Decisions;
import io.podnuma.agent.runtime.drift.DriftCheck;
import io.podnuma.agent.runtime.host.HostBook;
import io.podnuma.agent.runtime.host.HostScan;
import io.podnuma.agent.runtime.loop.AgentLoop;
import io.podnuma.agent.runtime.loop.RetryBackoff;
import io.podnuma.agent.runtime.pin.PinTargets;
import io.podnuma.agent.runtime.pin.PlanApplier;
import io.podnuma.agent.runtime.pin.WantedPins;
import io.podnuma.agent.runtime.pin.WriteGate;
import io.podnuma.agent.runtime.pin.WriteMode;
import io.podnuma.agent.runtime.pods.PodBook;
import io.podnuma.agent.runtime.recovery.Recovery;
import io.podnuma.agent.runtime.status.AgentStatus;
import io.podnuma.agent.runtime.sync.FullSync;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node agent at run time: one thread ({@link AgentLoop}) owns the node state and turns what it hears (pods
 * from the API server, container cgroups from the host, the reconcile tick) into decisions of the engine and then
 * into effects (checkpoint, cgroup writes, Events, reports), in that order. Each step is a part of its own; this
 * class says in which order they run.
 *
 * <p>Start-up order: checkpoint (each pod's assignment checked against what the engine produces, then carried
 * over to the policy in force; {@link Recovery}) → pod list → full sync (garbage collection only now, new pods
 * admitted in creation order) → every container cgroup reconciled → ready. Before the first full sync the checkpoint
 * decides: containers of the pods it holds get their assignments, every other container the shared pool, and the
 * reconcile tick repairs drift; so an agent that restarts while the API server is away keeps pinning what it knows
 * and keeps exclusive CPUs exclusive. Without a checkpoint (none, or set aside as corrupt) the host's cpusets are
 * the only record ({@link WriteMode#REBUILDING}): nothing is written before the full sync, which first admits each
 * pod within the CPUs its containers hold (where the engine could give that placement), then the others afresh, so
 * running pods are not moved.
 *
 * <p>Exclusivity on the host ({@link io.podnuma.agent.runtime.pin.PinPlan}): when CPUs move, every container first
 * loses the CPUs it must give up, then containers gain theirs; a container never gains a CPU that another container
 * still holds but should not (a failed write), so no CPU is exclusive to two containers even when writes fail.
 */
public final class NodeAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodeAgent.class);

    static final String DEGRADED = AgentStatus.DEGRADED;

    /**
     * @param admission what a refused pod gets: {@link AdmissionAction#EVICT} evicts it, otherwise it runs unpinned
     * @param exclusiveCpuQuota {@link ExclusiveCpuQuota#DISABLE} turns off the CFS quota of exclusive containers
     */
    public record Settings(
            String nodeName,
            Optional<String> policyName,
            String configHash,
            AdmissionAction admission,
            ExclusiveCpuQuota exclusiveCpuQuota,
            Duration reconcilePeriod,
            Duration syncTimeoutLog) {

        public Settings {
            Objects.requireNonNull(nodeName, "nodeName");
            Objects.requireNonNull(policyName, "policyName");
            Objects.requireNonNull(configHash, "configHash");
            Objects.requireNonNull(admission, "admission");
            Objects.requireNonNull(exclusiveCpuQuota, "exclusiveCpuQuota");
            Objects.requireNonNull(reconcilePeriod, "reconcilePeriod");
            Objects.requireNonNull(syncTimeoutLog, "syncTimeoutLog");
        }
    }

    /** A container cgroup found on the host. */
    public record Found(ContainerCgroup cgroup, CgroupPath path) {}

    /** What the agent is made of; of these the runtime closes only the pod source it started. */
    public record Parts(
            CpuTopology topology,
            NodeAllocator allocator,
            PodMapper mapper,
            CgroupNaming naming,
            PinWriter pins,
            Supplier<List<Found>> scan,
            CheckpointStore checkpoints,
            PodSource pods,
            RuntimeEvents events,
            Consumer<AgentReport> reports,
            AgentMetrics metrics,
            Supplier<KubeletCheck> kubelet,
            Runnable markReady,
            Clock clock) {}

    private final Settings settings;
    private final Parts parts;
    private final NodeAllocator allocator;
    private final PodFeed feed;
    private final WriteGate gate = new WriteGate(WriteMode.ACTIVE);
    private final AgentStatus status;
    private final AgentLoop loop;
    private final PodBook pods = new PodBook();
    private final HostBook host = new HostBook();
    private final HostScan hostScan;
    private final Admissions admissions;
    private final PinTargets targets;
    private final PlanApplier pins;
    private final DriftCheck drift;
    private final Recovery recovery;
    private final Decisions decisions;
    private final FullSync fullSync;

    // Owned by the loop thread.
    private NodeState state;
    private ScheduledFuture<?> ticker;

    private volatile boolean ready;
    private volatile Thread syncWaiter;

    public NodeAgent(Settings settings, Parts parts) {
        this.settings = settings;
        this.parts = parts;
        this.allocator = parts.allocator();
        this.state = allocator.initialState();
        this.feed = new PodFeed(parts.pods(), parts.mapper());
        this.status = new AgentStatus(
                new AgentStatus.Identity(settings.nodeName(), settings.policyName(), settings.configHash()),
                parts.topology(),
                allocator,
                parts.reports(),
                parts.metrics(),
                parts.clock());
        this.loop = new AgentLoop(
                gate::halted, (what, e) -> status.error("InternalError", "handling " + what + " failed: " + e));
        CpuSet.Builder mems = CpuSet.builder();
        parts.topology().numaNodes().forEach(n -> mems.add(n.id()));
        this.hostScan = new HostScan(parts.pins(), this::scan, host);
        this.admissions = new Admissions(allocator, parts.metrics(), settings.admission());
        this.decisions = new Decisions(admissions, pods, parts.events());
        this.fullSync = new FullSync(
                allocator,
                pods,
                host,
                hostScan,
                gate,
                admissions,
                decisions,
                parts.topology().onlineCpus());
        this.targets = new PinTargets(new WantedPins(mems.build()), pods, host, parts.naming());
        RetryBackoff retry = new RetryBackoff(loop, settings.reconcilePeriod());
        this.pins = new PlanApplier(
                parts.pins(),
                host,
                pods,
                targets,
                gate,
                retry,
                parts.metrics(),
                parts.events(),
                status,
                settings.exclusiveCpuQuota());
        retry.retrying(() -> pins.all(state));
        this.drift =
                new DriftCheck(parts.pins(), host, pods, targets, pins, gate, parts.metrics(), parts.events(), status);
        this.recovery = new Recovery(
                parts.checkpoints(),
                allocator,
                TopologyFingerprint.of(parts.topology()),
                settings.configHash(),
                parts.events(),
                status,
                parts.metrics());
    }

    /**
     * Loads the checkpoint, starts the pod source and returns; the full sync follows when the pod list arrives
     * ({@link #awaitReady}).
     */
    public void start() {
        loop.run(this::recover);
        feed.start(new PodFeed.Listener() {
            @Override
            public void changed(PodRecord pod) {
                loop.execute("pod update", () -> podChanged(pod));
            }

            @Override
            public void deleted(String uid) {
                loop.execute("pod deletion", () -> podDeleted(uid));
            }
        });
        Thread waiter = new Thread(this::awaitFirstList, "podnuma-agent-sync");
        waiter.setDaemon(true);
        syncWaiter = waiter;
        waiter.start();
        ticker = loop.every(
                "reconcile", this::reconcile, settings.reconcilePeriod().toMillis());
    }

    private void awaitFirstList() {
        try {
            while (!feed.awaitSynced(settings.syncTimeoutLog())) {
                LOG.warn(
                        "the pod list of node {} has not arrived after {}; pinning the pods of the checkpoint "
                                + "meanwhile",
                        settings.nodeName(),
                        settings.syncTimeoutLog());
            }
            loop.execute("full sync", this::fullSync);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A container cgroup appeared on the host; {@code seenNanos} is {@link System#nanoTime()} when it was seen. */
    public void containerAppeared(ContainerCgroup cgroup, CgroupPath path, long seenNanos) {
        loop.execute("new container " + path, () -> pinNew(new FoundContainer(cgroup, path), seenNanos));
    }

    public void containerRemoved(CgroupPath path) {
        loop.executeAlways(() -> host.forget(path));
    }

    /** What PodResources answers from; replaced after every decision. */
    public PodResourcesSnapshot snapshot() {
        return status.snapshot();
    }

    public boolean isReady() {
        return ready;
    }

    public boolean awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!ready) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
        return true;
    }

    /** The node state as the loop holds it now. */
    public NodeState state() {
        return loop.call(() -> state);
    }

    /** Runs a reconcile pass now and waits for it (what the tick does). */
    public void reconcileNow() {
        loop.run(this::reconcile);
    }

    /** Waits until everything submitted so far has been handled. */
    public void drain() {
        loop.call(() -> null);
    }

    /**
     * Stops the agent. {@code restore}: the node leaves podnuma, so every container gets every CPU and memory
     * node back and the checkpoint is deleted; otherwise (a rolling update) the pins stay for the next agent.
     */
    public void stop(boolean restore) {
        if (ticker != null) {
            ticker.cancel(false);
        }
        Thread waiter = syncWaiter;
        if (waiter != null) {
            waiter.interrupt();
        }
        loop.run(() -> {
            if (restore) {
                int restored =
                        pins.restore(state, targets.everything(parts.topology().onlineCpus()));
                recovery.delete();
                LOG.info("the node left podnuma: {} containers got every CPU and memory node back", restored);
            }
            gate.halt();
        });
        close();
    }

    @Override
    public void close() {
        feed.close();
        loop.close();
    }

    // ---- the steps, on the loop thread ----

    private void recover() {
        Recovery.Recovered recovered = recovery.recover();
        state = recovered.state();
        if (recovered.start() == WriteMode.REBUILDING) {
            gate.rebuild();
        }
        status.publish(state, pods);
    }

    private void fullSync() {
        FullSync.Result synced = fullSync.run(state, feed.list());
        state = synced.state();
        recovery.save(state);
        refreshKubelet();
        pins.all(state);
        ready = true;
        parts.markReady().run();
        status.condition(
                AgentStatus.READY,
                ConditionBook.TRUE,
                "Synced",
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

    private void podChanged(PodRecord r) {
        String uid = r.ref().uid();
        pods.put(r);
        if (!ready) {
            return; // the full sync decides, in creation order
        }
        CpuSet poolBefore = state.sharedPool();
        boolean changed = false;
        if (r.terminal()) {
            changed = release(uid);
        } else if (!state.pods().containsKey(uid) && !pods.refused(uid)) {
            if (r.pod().isPresent()) {
                changed = decide(admissions.admit(state, r));
            } else {
                decisions.refuseUnreadable(r);
            }
        }
        if (changed) {
            decided(poolBefore);
        } else {
            pins.pod(state, uid);
            status.refreshSnapshot(state, pods);
        }
    }

    private void podDeleted(String uid) {
        pods.remove(uid);
        CpuSet poolBefore = state.sharedPool();
        if (ready && release(uid)) {
            decided(poolBefore);
        }
    }

    /** After a decision that changed the node state: checkpoint, then cgroups, then reports. */
    private void decided(CpuSet poolBefore) {
        pins.decided(poolBefore, state.sharedPool());
        recovery.save(state);
        pins.all(state);
        status.publish(state, pods);
    }

    /** Carries out an admission decision; whether the pod is held now. */
    private boolean decide(AdmissionDecision decision) {
        state = decisions.carryOut(state, decision);
        return decision instanceof AdmissionDecision.Admit;
    }

    private boolean release(String uid) {
        pods.ended(uid);
        if (!state.pods().containsKey(uid)) {
            return false;
        }
        state = allocator.remove(state, uid);
        return true;
    }

    private void pinNew(FoundContainer f, long seenNanos) {
        // Also before the first full sync: a pod the checkpoint does not know runs on the shared pool until then.
        hostScan.discovered(f).ifPresent(hc -> {
            if (pins.wanted(state, hc)) {
                parts.metrics().pinLatency(Duration.ofNanos(System.nanoTime() - seenNanos));
            }
        });
    }

    private void reconcile() {
        AgentStatus.Mark before = status.mark();
        refreshKubelet();
        // Before the first full sync too (the API server may be away): pins follow the checkpoint, nothing is released.
        hostScan.rescan();
        int drifted = drift.run(state);
        pins.all(state);
        // The tick runs every few seconds on every node: render the reports only when something changed.
        if (drifted > 0 || status.changedSince(before)) {
            status.publish(state, pods);
        }
    }

    private void refreshKubelet() {
        KubeletCheck check = parts.kubelet().get();
        status.kubelet(check);
        if (gate.kubelet(check.agentMayWrite())) {
            parts.events().onNode(EventType.WARNING, EventReason.KUBELET_CONFLICT, check.message());
            LOG.error("{}; podnuma writes no cpuset while this lasts", check.message());
        }
    }

    private List<FoundContainer> scan() {
        return parts.scan().get().stream()
                .map(f -> new FoundContainer(f.cgroup(), f.path()))
                .toList();
    }
}
