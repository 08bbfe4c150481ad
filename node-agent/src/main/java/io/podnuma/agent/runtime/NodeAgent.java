package io.podnuma.agent.runtime;

import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupWriteException;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.checkpoint.Checkpoint;
import io.podnuma.agent.checkpoint.CheckpointRead;
import io.podnuma.agent.checkpoint.CheckpointStore;
import io.podnuma.agent.checkpoint.TopologyFingerprint;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.node.AdmissionResult;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.node.PolicyTransition;
import io.podnuma.agent.engine.node.RejectionReason;
import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.kubelet.KubeletCheck;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.podresources.AllocatableResources;
import io.podnuma.agent.podresources.ListedPod;
import io.podnuma.agent.podresources.PodResourcesSnapshot;
import io.podnuma.agent.pods.PodMapper;
import io.podnuma.agent.report.ConditionBook;
import io.podnuma.agent.report.NodeReport;
import io.podnuma.agent.report.nrt.SharedPoolRequests;
import io.podnuma.crds.v1alpha1.nodestate.AgentError;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node agent at run time: one thread owns the node state and turns what it hears (pods from the API server,
 * container cgroups from the host, the reconcile tick) into decisions of the engine and then into effects
 * (checkpoint, cgroup writes, Events, reports), in that order.
 *
 * <p>Start-up order: checkpoint (each pod's assignment checked against what the engine produces, then carried
 * over to the policy in force) → pod list → full sync (garbage collection only now, new pods admitted in creation
 * order) → every container cgroup reconciled → ready. Before the first full sync the checkpoint decides: containers of the pods it holds get their
 * assignments, every other container the shared pool, and the reconcile tick repairs drift; so an agent that
 * restarts while the API server is away keeps pinning what it knows and keeps exclusive CPUs exclusive. Without a
 * checkpoint (none, or set aside as corrupt) the host's cpusets are the only record: nothing is written before the
 * full sync, which first admits each pod within the CPUs its containers hold (where the engine could give that
 * placement), then the others afresh, so running pods are not moved.
 *
 * <p>Exclusivity on the host: when CPUs move, every container first loses the CPUs it must give up, then
 * containers gain theirs; a container never gains a CPU that another container still holds but should not (a
 * failed write), so no CPU is exclusive to two containers even when writes fail.
 */
public final class NodeAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodeAgent.class);

    static final String READY = "Ready";
    static final String DEGRADED = "Degraded";
    static final String DRIFT = "Drift";

    /**
     * @param evictRejected evict pods the engine refuses ({@code admission: Evict}) instead of only reporting them
     * @param removeQuota turn off the CFS quota of containers with exclusive CPUs
     */
    public record Settings(
            String nodeName,
            Optional<String> policyName,
            String configHash,
            boolean evictRejected,
            boolean removeQuota,
            Duration reconcilePeriod,
            Duration syncTimeoutLog) {

        public Settings {
            Objects.requireNonNull(nodeName, "nodeName");
            Objects.requireNonNull(policyName, "policyName");
            Objects.requireNonNull(configHash, "configHash");
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

    /** A failed write is retried after this, doubling up to the reconcile period while it keeps failing. */
    static final long FIRST_RETRY_MILLIS = 100;

    private final Settings settings;
    private final Parts parts;
    private final NodeAllocator allocator;
    private final WantedPins wanted;
    private final TopologyFingerprint fingerprint;
    private final AllocatableResources allocatable;
    private final ScheduledExecutorService loop;
    private final PoolPropagation poolPropagation;

    // Owned by the loop thread.
    private NodeState state;
    private final Map<String, PodRecord> records = new HashMap<>();
    private final Map<String, AdmissionResult.Rejected> rejected = new TreeMap<>();
    private final Map<CgroupPath, HostContainer> host = new HashMap<>();
    private final Set<String> evicted = new HashSet<>();
    /** Per container: CPUs it still holds but must give up (its write failed); nobody else gets them until then. */
    private final Map<CgroupPath, CpuSet> stale = new HashMap<>();
    /**
     * Containers whose cpuset the agent has decided (written, or found already right); a new cgroup holds its
     * parent's sets by inheritance until then, which is no claim on them.
     */
    private final Set<CgroupPath> written = new HashSet<>();

    private boolean synced;
    /**
     * No trustworthy checkpoint (none, or set aside): until the full sync the cpusets on the host are the only
     * record of who held what, so nothing is written, and the full sync first places each pod on the CPUs its
     * containers hold where that is still a valid placement.
     */
    private boolean rebuilding;

    private boolean mayWrite = true;
    private ConditionBook conditions = ConditionBook.empty();
    private Optional<AgentError> lastError = Optional.empty();
    private ScheduledFuture<?> ticker;
    private boolean retryScheduled;
    /** Set by {@link #stop}: tasks still queued behind it must not write (they would undo a restore). */
    private boolean halted;
    /** While every container gets everything back, nothing is exclusive and nothing is kept apart. */
    private boolean restoring;

    private long retryDelayMillis = FIRST_RETRY_MILLIS;
    private boolean writeFailed;

    private volatile PodResourcesSnapshot snapshot;
    private volatile boolean ready;
    private volatile Thread syncWaiter;

    public NodeAgent(Settings settings, Parts parts) {
        this.settings = settings;
        this.parts = parts;
        this.allocator = parts.allocator();
        CpuSet.Builder mems = CpuSet.builder();
        parts.topology().numaNodes().forEach(n -> mems.add(n.id()));
        this.wanted = new WantedPins(mems.build());
        this.fingerprint = TopologyFingerprint.of(parts.topology());
        this.allocatable = AllocatableResources.of(allocator);
        this.state = allocator.initialState();
        this.snapshot = new PodResourcesSnapshot(state, List.of(), allocatable);
        this.poolPropagation = new PoolPropagation(parts.metrics());
        this.loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "podnuma-agent-loop");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Loads the checkpoint, starts the pod source and returns; the full sync follows when the pod list arrives
     * ({@link #awaitReady}).
     */
    public void start() {
        call(() -> {
            loadCheckpoint();
            return null;
        });
        parts.pods().start(new PodSource.Listener() {
            @Override
            public void changed(io.fabric8.kubernetes.api.model.Pod pod) {
                loop.execute(() -> guarded("pod update", () -> podChanged(pod)));
            }

            @Override
            public void deleted(io.fabric8.kubernetes.api.model.Pod pod) {
                loop.execute(() -> guarded("pod deletion", () -> podDeleted(pod)));
            }
        });
        Thread waiter = new Thread(this::awaitFirstList, "podnuma-agent-sync");
        waiter.setDaemon(true);
        syncWaiter = waiter;
        waiter.start();
        long period = settings.reconcilePeriod().toMillis();
        ticker = loop.scheduleWithFixedDelay(
                () -> guarded("reconcile", this::reconcile), period, period, TimeUnit.MILLISECONDS);
    }

    private void awaitFirstList() {
        try {
            while (!parts.pods().awaitSynced(settings.syncTimeoutLog())) {
                LOG.warn(
                        "the pod list of node {} has not arrived after {}; pinning the pods of the checkpoint "
                                + "meanwhile",
                        settings.nodeName(),
                        settings.syncTimeoutLog());
            }
            loop.execute(() -> guarded("full sync", this::fullSync));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A container cgroup appeared on the host; {@code seenNanos} is {@link System#nanoTime()} when it was seen. */
    public void containerAppeared(ContainerCgroup cgroup, CgroupPath path, long seenNanos) {
        loop.execute(() -> guarded("new container " + path, () -> pinNew(new Found(cgroup, path), seenNanos)));
    }

    public void containerRemoved(CgroupPath path) {
        loop.execute(() -> forget(path));
    }

    /** What PodResources answers from; replaced after every decision. */
    public PodResourcesSnapshot snapshot() {
        return snapshot;
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
        return call(() -> state);
    }

    /** Runs a reconcile pass now and waits for it (what the tick does). */
    public void reconcileNow() {
        call(() -> {
            reconcile();
            return null;
        });
    }

    /** Waits until everything submitted so far has been handled. */
    public void drain() {
        call(() -> null);
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
        call(() -> {
            if (restore) {
                restoreAll();
            }
            halted = true;
            return null;
        });
        close();
    }

    @Override
    public void close() {
        parts.pods().close();
        loop.shutdown();
        try {
            if (!loop.awaitTermination(10, TimeUnit.SECONDS)) {
                loop.shutdownNow();
            }
        } catch (InterruptedException e) {
            loop.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    // ---- the loop ----

    private void loadCheckpoint() {
        CheckpointRead read = parts.checkpoints()
                .read(
                        fingerprint,
                        settings.configHash(),
                        s -> PolicyTransition.adopt(allocator, allocator.validateAssignments(s))
                                .state());
        switch (read) {
            case CheckpointRead.Missing m -> {
                state = allocator.initialState();
                rebuilding = true;
            }
            case CheckpointRead.Loaded l -> {
                PolicyTransition.Outcome outcome =
                        PolicyTransition.adopt(allocator, l.checkpoint().state());
                state = outcome.state();
                LOG.info(
                        "checkpoint {} loaded: {} pods{}",
                        parts.checkpoints().file(),
                        state.pods().size(),
                        l.configChanged() ? " (written under another policy)" : "");
                if (l.configChanged()) {
                    parts.events()
                            .onNode(
                                    false,
                                    "PolicyChanged",
                                    "the policy changed since the checkpoint was written: "
                                            + state.pods().size()
                                            + " running pods keep their assignments, new pods follow the new policy");
                }
                degraded(outcome);
            }
            case CheckpointRead.Rejected r -> {
                state = allocator.initialState();
                rebuilding = true;
                String message = r.message() + "; moved to " + r.movedTo()
                        + ", rebuilding from the running pods and the CPUs their containers hold";
                parts.events().onNode(true, r.reason().eventReason(), message);
                error(r.reason().eventReason(), message);
            }
        }
        published();
    }

    private void degraded(PolicyTransition.Outcome outcome) {
        if (outcome.degraded()) {
            String message = "the policy in force conflicts with what running pods hold; they keep it until they "
                    + "end: " + outcome.summary();
            conditions = conditions.with(DEGRADED, ConditionBook.TRUE, "PolicyConflict", message, now());
            parts.events().onNode(true, "PolicyConflict", message);
        } else {
            conditions = conditions.with(DEGRADED, ConditionBook.FALSE, "AsExpected", "no conflicts", now());
        }
    }

    private void fullSync() {
        records.clear();
        for (io.fabric8.kubernetes.api.model.Pod p : parts.pods().list()) {
            PodRecord r = PodRecord.of(p, parts.mapper());
            records.put(r.ref().uid(), r);
        }
        int released = 0;
        for (String uid : List.copyOf(state.pods().keySet())) {
            PodRecord r = records.get(uid);
            if (r == null || r.terminal()) {
                state = allocator.remove(state, uid);
                released++;
            }
        }
        List<PodRecord> order = records.values().stream()
                .filter(PodRecord::admissible)
                .sorted(Comparator.comparing(PodRecord::created)
                        .thenComparing(r -> r.ref().uid()))
                .toList();
        // Before the admissions: without a checkpoint the cgroups found here are the record of who held what.
        rescan();
        int admitted = 0;
        int kept = 0;
        if (rebuilding) {
            Map<String, CpuSet> held = heldOnHost();
            for (PodRecord r : order) {
                CpuSet cpus = held.get(r.ref().uid());
                if (cpus != null && !state.pods().containsKey(r.ref().uid()) && admit(r, Optional.of(cpus))) {
                    kept++;
                }
            }
        }
        for (PodRecord r : order) {
            if (!state.pods().containsKey(r.ref().uid()) && admit(r, Optional.empty())) {
                admitted++;
            }
        }
        if (rebuilding) {
            LOG.info(
                    "rebuilt without a checkpoint: {} pods kept the CPUs their containers hold, {} admitted afresh",
                    kept,
                    admitted);
            admitted += kept;
            rebuilding = false;
        }
        for (PodRecord r : records.values()) {
            if (r.pod().isEmpty() && !r.terminal()) {
                refuseUnreadable(r);
            }
        }
        writeCheckpoint();
        refreshKubelet();
        applyAll();
        synced = true;
        ready = true;
        parts.markReady().run();
        conditions = conditions.with(
                READY,
                ConditionBook.TRUE,
                "Synced",
                "pods listed, " + state.pods().size() + " held, " + host.size() + " container cgroups reconciled",
                now());
        LOG.info(
                "full sync: {} pods on the node, {} held ({} admitted now, {} released), {} container cgroups",
                records.size(),
                state.pods().size(),
                admitted,
                released,
                host.size());
        published();
    }

    private void podChanged(io.fabric8.kubernetes.api.model.Pod pod) {
        if (pod.getMetadata() == null || pod.getMetadata().getUid() == null) {
            return;
        }
        PodRecord r = PodRecord.of(pod, parts.mapper());
        String uid = r.ref().uid();
        records.put(uid, r);
        if (!synced) {
            return; // the full sync decides, in creation order
        }
        CpuSet poolBefore = state.sharedPool();
        boolean changed = false;
        if (r.terminal()) {
            changed = release(uid);
        } else if (!state.pods().containsKey(uid) && !rejected.containsKey(uid)) {
            if (r.pod().isPresent()) {
                changed = admit(r, Optional.empty());
            } else {
                refuseUnreadable(r);
            }
        }
        if (changed) {
            poolPropagation.decided(poolBefore, state.sharedPool(), System.nanoTime());
            writeCheckpoint();
            applyAll();
            published();
        } else {
            applyPod(uid);
            snapshot = snapshotOf();
        }
    }

    private void podDeleted(io.fabric8.kubernetes.api.model.Pod pod) {
        if (pod.getMetadata() == null || pod.getMetadata().getUid() == null) {
            return;
        }
        String uid = pod.getMetadata().getUid();
        records.remove(uid);
        CpuSet poolBefore = state.sharedPool();
        if (synced && release(uid)) {
            poolPropagation.decided(poolBefore, state.sharedPool(), System.nanoTime());
            writeCheckpoint();
            applyAll();
            published();
        }
    }

    /**
     * Per pod, the CPUs its containers hold on the host now, leaving out containers that hold every online CPU
     * or none yet (never pinned: they say nothing about where the pod was).
     */
    private Map<String, CpuSet> heldOnHost() {
        CpuSet online = parts.topology().onlineCpus();
        Map<String, CpuSet> held = new HashMap<>();
        for (HostContainer hc : host.values()) {
            hc.applied()
                    .map(Pin::cpus)
                    .filter(cpus -> !cpus.isEmpty() && !cpus.equals(online))
                    .ifPresent(cpus -> held.merge(hc.podUid(), cpus, CpuSet::union));
        }
        return held;
    }

    /**
     * Admits a pod. {@code within}: only on those CPUs (the rebuild placing a pod where its containers are); a
     * refusal there is no refusal, the pod is admitted afresh after the others.
     */
    private boolean admit(PodRecord r, Optional<CpuSet> within) {
        io.podnuma.agent.engine.pod.Pod pod = r.pod().orElseThrow();
        long t0 = System.nanoTime();
        AdmissionResult result;
        try {
            result = within.isPresent() ? allocator.admitWithin(state, pod, within.get()) : allocator.admit(state, pod);
        } catch (IllegalArgumentException e) {
            // Only a degraded node (books that no longer add up after a policy change) gets here.
            result = new AdmissionResult.Rejected(
                    r.ref(),
                    RejectionReason.UNEXPECTED_ADMISSION_ERROR,
                    "the node cannot place new pods until its policy conflict is resolved: " + e.getMessage());
        }
        if (within.isPresent() && result instanceof AdmissionResult.Rejected) {
            LOG.info("pod {} cannot keep CPUs {}: {}; it is admitted afresh", r.ref(), within.get(), result);
            return false;
        }
        AdmissionMetrics.record(parts.metrics(), pod, result, Duration.ofNanos(System.nanoTime() - t0));
        switch (result) {
            case AdmissionResult.Admitted a -> {
                state = a.state();
                rejected.remove(r.ref().uid());
                return true;
            }
            case AdmissionResult.Rejected rej -> {
                refuse(rej);
                return false;
            }
        }
    }

    private void refuseUnreadable(PodRecord r) {
        if (!rejected.containsKey(r.ref().uid())) {
            refuse(new AdmissionResult.Rejected(
                    r.ref(), "PodSpecUnreadable", r.unreadable().orElse("the pod spec cannot be read")));
        }
    }

    private void refuse(AdmissionResult.Rejected rej) {
        rejected.put(rej.pod().uid(), rej);
        boolean evict = settings.evictRejected() && !rej.reason().equals("PodSpecUnreadable");
        String outcome = evict ? "; evicting it (admission: Evict)" : "; it runs in the node's shared pool";
        parts.events().onPod(rej.pod(), true, rej.reason(), rej.message() + outcome);
        LOG.warn("pod {} refused: {}: {}{}", rej.pod(), rej.reason(), rej.message(), outcome);
        if (evict && evicted.add(rej.pod().uid())) {
            parts.events().evict(rej.pod(), rej.reason(), rej.message());
        }
    }

    private boolean release(String uid) {
        rejected.remove(uid);
        evicted.remove(uid);
        if (!state.pods().containsKey(uid)) {
            return false;
        }
        state = allocator.remove(state, uid);
        return true;
    }

    private void pinNew(Found f, long seenNanos) {
        HostContainer hc = discovered(f);
        if (hc == null) {
            return;
        }
        // Also before the first full sync: a pod the checkpoint does not know runs on the shared pool until then.
        Pin target = wantedFor(hc);
        if (write(hc, target, target, false)) {
            parts.metrics().pinLatency(Duration.ofNanos(System.nanoTime() - seenNanos));
        }
    }

    private HostContainer discovered(Found f) {
        Optional<Pin> current;
        try {
            current = parts.pins().read(f.path());
        } catch (CgroupWriteException e) {
            LOG.warn("{}", e.getMessage());
            current = Optional.empty();
        }
        if (current.isEmpty()) {
            forget(f.path()); // gone again already
            return null;
        }
        HostContainer hc = new HostContainer(f.path(), f.cgroup(), current);
        host.put(f.path(), hc);
        return hc;
    }

    private void rescan() {
        Set<CgroupPath> seen = new HashSet<>();
        for (Found f : parts.scan().get()) {
            seen.add(f.path());
            if (!host.containsKey(f.path())) {
                discovered(f);
            }
        }
        for (CgroupPath p : List.copyOf(host.keySet())) {
            if (!seen.contains(p)) {
                forget(p);
            }
        }
    }

    /** The cpuset a host container should have now. */
    private Pin wantedFor(HostContainer hc) {
        String uid = hc.podUid();
        PodRecord r = records.get(uid);
        PodAssignment pod = state.pods().get(uid);
        if (r == null) {
            return pod == null
                    ? wanted.shared(state)
                    : wanted.ofUnidentified(
                            state,
                            uid,
                            pod.containers().stream()
                                    .map(ContainerAssignment::name)
                                    .toList());
        }
        Optional<String> name = r.containerNamed(hc.cgroup().containerId());
        if (name.isPresent()) {
            return wanted.of(state, uid, name.get());
        }
        if (pod == null) {
            return wanted.shared(state);
        }
        List<String> unidentified = new ArrayList<>();
        for (ContainerAssignment c : pod.containers()) {
            if (!onHost(r, c.name())) {
                unidentified.add(c.name());
            }
        }
        return wanted.ofUnidentified(state, uid, unidentified);
    }

    private boolean onHost(PodRecord r, String container) {
        return r.containerId(container)
                .map(id -> host.containsKey(parts.naming()
                        .containerPath(new ContainerCgroup(r.qos(), r.ref().uid(), id))))
                .orElse(false);
    }

    private void applyPod(String uid) {
        if (!mayWrite) {
            return;
        }
        for (HostContainer hc : List.copyOf(host.values())) {
            if (hc.podUid().equals(uid)) {
                Pin target = wantedFor(hc);
                write(hc, target, target, false);
            }
        }
    }

    /** Every host container to its wanted cpuset: first everyone gives up CPUs, then everyone gains. */
    private void applyAll() {
        if (!mayWrite) {
            return;
        }
        Map<CgroupPath, Pin> want = new LinkedHashMap<>();
        // In path order; each path rendered once (a comparator rendering both sides costs more than the pass).
        TreeMap<String, HostContainer> byPath = new TreeMap<>();
        for (HostContainer hc : host.values()) {
            byPath.put(hc.path().toString(), hc);
        }
        List<HostContainer> all = new ArrayList<>(byPath.values());
        for (HostContainer hc : all) {
            want.put(hc.path(), wantedFor(hc));
        }
        for (HostContainer hc : all) {
            Pin target = want.get(hc.path());
            if (hc.applied().isPresent() && !hc.applied().get().equals(target)) {
                Pin narrowed = hc.applied().get().narrowedTo(target);
                if (!narrowed.equals(hc.applied().get())) {
                    write(hc, narrowed, target, false);
                }
            }
        }
        // Then containers gain. A container whose CPUs all change could not give any up above (a cpuset is never
        // empty): whoever gains what it held outside the shared pool waits until it has moved. Passes until nothing
        // is left or nothing can go; what is left then (containers swapping exclusive CPUs) is written as it is.
        List<HostContainer> pending = new ArrayList<>(all);
        boolean progress = true;
        while (!pending.isEmpty() && progress) {
            progress = false;
            CpuSet.Builder leavingBuilder = CpuSet.builder();
            for (HostContainer hc : pending) {
                HostContainer now = host.get(hc.path());
                if (now != null && now.applied().isPresent()) {
                    leavingBuilder.addAll(now.applied()
                            .get()
                            .cpus()
                            .difference(want.get(hc.path()).cpus()));
                }
            }
            // CPUs that stay in the node shared pool may be held by many at once: only the others must wait.
            CpuSet leaving = leavingBuilder.build().difference(state.sharedPool());
            for (HostContainer hc : List.copyOf(pending)) {
                HostContainer now = host.get(hc.path());
                Pin target = want.get(hc.path());
                CpuSet gained = now == null || now.applied().isEmpty()
                        ? CpuSet.empty()
                        : target.cpus().difference(now.applied().get().cpus());
                if (now == null || !gained.intersects(leaving)) {
                    pending.remove(hc);
                    progress = true;
                    if (now != null) {
                        write(now, target, target, false);
                    }
                }
            }
        }
        for (HostContainer hc : pending) {
            HostContainer now = host.get(hc.path());
            if (now != null) {
                write(now, want.get(hc.path()), want.get(hc.path()), false);
            }
        }
        if (poolPropagation.awaiting()) {
            poolPropagation.applied(state.sharedPool(), heldOnSharedPool(want), System.nanoTime());
        }
    }

    /** What each container that should run on the node shared pool holds now (those gone meanwhile left out). */
    private List<CpuSet> heldOnSharedPool(Map<CgroupPath, Pin> want) {
        List<CpuSet> held = new ArrayList<>();
        for (Map.Entry<CgroupPath, Pin> e : want.entrySet()) {
            HostContainer now = host.get(e.getKey());
            if (now != null && e.getValue().cpus().equals(state.sharedPool())) {
                held.add(now.applied().map(Pin::cpus).orElse(CpuSet.empty()));
            }
        }
        return held;
    }

    /**
     * Writes one container's cpuset. CPUs another container still holds but must give up (its write failed) are
     * left out until it has: a container never shares a CPU with its previous owner, even one it started with
     * (a new cgroup starts with all its parent's CPUs).
     *
     * @param target what the container should end with ({@code pin} itself, or what {@code pin} narrows towards)
     * @return whether the container now has {@code pin}
     */
    private boolean write(HostContainer hc, Pin pin, Pin target, boolean repair) {
        if (!mayWrite) {
            return false; // the kubelet manages cpusets here: podnuma must not fight it
        }
        if (rebuilding && !restoring) {
            return false; // the cpusets are the only record of who held what until the full sync has read them
        }
        if (hc.applied().isPresent() && hc.applied().get().equals(pin)) {
            written.add(hc.path()); // already what the agent wants: from now on it holds its CPUs by decision
            // CPUs it failed to give up may be wanted again (the change was undone): they keep nobody waiting.
            holds(hc.path(), pin.cpus(), target);
            return true;
        }
        CpuSet blocked = CpuSet.empty();
        if (!restoring) {
            for (Map.Entry<CgroupPath, CpuSet> e : stale.entrySet()) {
                if (!e.getKey().equals(hc.path())) {
                    blocked = blocked.union(e.getValue().intersection(pin.cpus()));
                }
            }
        }
        Pin writing = pin;
        if (!blocked.isEmpty()) {
            CpuSet rest = pin.cpus().difference(blocked);
            LOG.warn("not giving {} CPUs {} yet: another container could not give them up", hc.path(), blocked);
            scheduleRetry();
            if (rest.isEmpty() || hc.applied().map(a -> a.cpus().equals(rest)).orElse(false)) {
                return false;
            }
            writing = new Pin(rest, pin.mems());
        }
        try {
            parts.pins().apply(hc.path(), writing);
            host.put(hc.path(), hc.withApplied(writing));
            written.add(hc.path());
            holds(hc.path(), writing.cpus(), target);
            if (settings.removeQuota() && exclusive(hc)) {
                parts.pins().removeQuota(hc.path());
            }
            if (repair) {
                parts.metrics().driftRepaired();
            }
            return writing == pin;
        } catch (CgroupWriteException e) {
            parts.metrics().cgroupWriteFailed();
            if (parts.pins().readQuietly(hc.path()).isEmpty()) {
                forget(hc.path()); // the container is gone; nothing to pin
                return false;
            }
            hc.applied().ifPresent(a -> {
                CpuSet unwanted = a.cpus().difference(target.cpus());
                if (!unwanted.isEmpty() && written.contains(hc.path())) {
                    stale.merge(hc.path(), unwanted, CpuSet::union);
                }
            });
            error("CpusetWriteFailed", e.getMessage());
            podOf(hc).ifPresent(p -> parts.events().onPod(p, true, "CpusetWriteFailed", e.getMessage()));
            LOG.warn("{} (retrying in {} ms)", e.getMessage(), retryDelayMillis);
            writeFailed = true;
            scheduleRetry();
            return false;
        }
    }

    /** A container holds {@code cpus} by decision: of them, those outside {@code target} are stale. */
    private void holds(CgroupPath path, CpuSet cpus, Pin target) {
        CpuSet unwanted = restoring ? CpuSet.empty() : cpus.difference(target.cpus());
        if (unwanted.isEmpty()) {
            stale.remove(path);
        } else {
            stale.put(path, unwanted);
        }
    }

    private void forget(CgroupPath path) {
        host.remove(path);
        stale.remove(path);
        written.remove(path);
    }

    private void scheduleRetry() {
        if (retryScheduled) {
            return;
        }
        retryScheduled = true;
        long delay = retryDelayMillis;
        retryDelayMillis = Math.min(
                retryDelayMillis * 2,
                Math.max(FIRST_RETRY_MILLIS, settings.reconcilePeriod().toMillis()));
        loop.schedule(
                () -> guarded("retry of failed cgroup writes", () -> {
                    retryScheduled = false;
                    writeFailed = false;
                    applyAll();
                    if (!writeFailed) {
                        retryDelayMillis = FIRST_RETRY_MILLIS;
                    }
                }),
                delay,
                TimeUnit.MILLISECONDS);
    }

    private boolean exclusive(HostContainer hc) {
        PodRecord r = records.get(hc.podUid());
        PodAssignment pod = state.pods().get(hc.podUid());
        if (r == null || pod == null) {
            return false;
        }
        return r.containerNamed(hc.cgroup().containerId())
                .flatMap(pod::container)
                .map(c -> c.kind() == AssignmentKind.EXCLUSIVE)
                .orElse(false);
    }

    private void reconcile() {
        ConditionBook conditionsBefore = conditions;
        Optional<AgentError> errorBefore = lastError;
        refreshKubelet();
        // Before the first full sync too (the API server may be away): pins follow the checkpoint, nothing is released.
        rescan();
        int drifted = 0;
        List<String> where = new ArrayList<>();
        for (HostContainer hc : List.copyOf(host.values())) {
            Optional<Pin> actual = parts.pins().readQuietly(hc.path());
            if (actual.isEmpty()) {
                forget(hc.path());
                continue;
            }
            if (rebuilding) {
                host.put(hc.path(), hc.withApplied(actual.get())); // a fresher record, not drift: nothing is decided
                continue;
            }
            if (hc.applied().isPresent() && !actual.get().equals(hc.applied().get())) {
                Pin want = wantedFor(hc);
                if (actual.get().equals(want)) {
                    host.put(hc.path(), hc.withApplied(actual.get()));
                    continue;
                }
                drifted++;
                parts.metrics().driftDetected();
                HostContainer seen = new HostContainer(hc.path(), hc.cgroup(), actual);
                host.put(hc.path(), seen);
                String message = "cpuset of " + hc.path() + " was changed behind podnuma's back to " + actual.get()
                        + "; restoring " + want;
                where.add(hc.path().toString());
                if (mayWrite && write(seen, want, want, true)) {
                    podOf(hc).ifPresent(p -> parts.events().onPod(p, true, "CpusetDriftRepaired", message));
                }
            }
        }
        if (drifted > 0) {
            conditions = conditions.with(
                    DRIFT,
                    ConditionBook.TRUE,
                    "DriftRepaired",
                    drifted + " container cpusets were rewritten by someone else and restored: " + where,
                    now());
        } else if (conditions.byType().containsKey(DRIFT)) {
            conditions = conditions.with(DRIFT, ConditionBook.FALSE, "NoDrift", "every cpuset is as wanted", now());
        }
        applyAll();
        // The tick runs every few seconds on every node: render the reports only when something changed.
        if (drifted > 0 || !conditions.equals(conditionsBefore) || !lastError.equals(errorBefore)) {
            published();
        }
    }

    private Optional<PodRef> podOf(HostContainer hc) {
        return Optional.ofNullable(records.get(hc.podUid())).map(PodRecord::ref);
    }

    private void refreshKubelet() {
        KubeletCheck check = parts.kubelet().get();
        boolean before = mayWrite;
        mayWrite = check.agentMayWrite();
        conditions = conditions.withKubelet(check, now());
        if (before && !mayWrite) {
            parts.events().onNode(true, "KubeletConflict", check.message());
            LOG.error("{}; podnuma writes no cpuset while this lasts", check.message());
        }
    }

    private void restoreAll() {
        Pin everything = wanted.everything(parts.topology().onlineCpus());
        int restored = 0;
        stale.clear();
        restoring = true;
        for (HostContainer hc : List.copyOf(host.values())) {
            if (mayWrite && write(hc, everything, everything, false)) {
                restored++;
            }
        }
        parts.checkpoints().delete();
        LOG.info("the node left podnuma: {} containers got every CPU and memory node back", restored);
    }

    private void writeCheckpoint() {
        try {
            parts.checkpoints().write(new Checkpoint(state, fingerprint, settings.configHash()));
            parts.metrics().checkpointWritten();
        } catch (UncheckedIOException e) {
            parts.metrics().checkpointWriteFailed();
            error("CheckpointWriteFailed", e.getMessage());
            LOG.error("{}", e.getMessage());
        }
    }

    private void published() {
        parts.metrics().observe(state);
        snapshot = snapshotOf();
        parts.reports()
                .accept(new AgentReport(
                        new NodeReport(
                                settings.nodeName(),
                                parts.topology(),
                                state,
                                settings.policyName(),
                                settings.configHash(),
                                allocator.reservedCpus(),
                                conditions.conditions(),
                                lastError),
                        sharedPoolRequests()));
    }

    /**
     * What the long-running containers on the node shared pool request: those of pods the engine holds without
     * exclusive CPUs for them, and every container of pods it does not hold (refused, unreadable: they run there).
     */
    private SharedPoolRequests sharedPoolRequests() {
        long cpu = 0;
        long memory = 0;
        for (PodRecord r : records.values()) {
            if (r.terminal() || r.pod().isEmpty()) {
                continue;
            }
            PodAssignment held = state.pods().get(r.ref().uid());
            if (held != null && held.hasBubble()) {
                continue; // the whole pod lives in its bubble
            }
            for (var c : r.pod().get().allContainers()) {
                if (!c.type().longRunning()) {
                    continue;
                }
                boolean onSharedPool = held == null
                        || held.container(c.name())
                                .map(a -> a.kind() == AssignmentKind.NODE_SHARED)
                                .orElse(true);
                if (onSharedPool) {
                    cpu += c.resources().requests().cpu().orElse(0);
                    memory += c.resources().requests().memoryBytes().orElse(0);
                }
            }
        }
        return new SharedPoolRequests(cpu, memory);
    }

    private PodResourcesSnapshot snapshotOf() {
        List<ListedPod> listed = new ArrayList<>();
        for (PodRecord r : records.values()) {
            if (r.admissible()) {
                listed.add(ListedPod.of(r.pod().orElseThrow()));
            }
        }
        listed.sort(Comparator.comparing((ListedPod p) -> p.ref().namespace())
                .thenComparing(p -> p.ref().name()));
        return new PodResourcesSnapshot(state, listed, allocatable);
    }

    private void error(String reason, String message) {
        lastError = Optional.of(new AgentError(now().toString(), reason, message));
    }

    private java.time.Instant now() {
        return parts.clock().instant();
    }

    private void guarded(String what, Runnable r) {
        if (halted) {
            return;
        }
        try {
            r.run();
        } catch (RuntimeException e) {
            // One bad input must not stop the loop that pins every other container.
            LOG.error("handling {} failed", what, e);
            error("InternalError", "handling " + what + " failed: " + e);
        }
    }

    private <T> T call(Callable<T> c) {
        Future<T> f = loop.submit(c);
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
