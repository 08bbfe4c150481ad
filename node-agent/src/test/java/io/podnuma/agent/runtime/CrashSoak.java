package io.podnuma.agent.runtime;

import static io.podnuma.agent.runtime.RuntimeFixtures.allStatuses;
import static io.podnuma.agent.runtime.RuntimeFixtures.qos;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.checkpoint.CheckpointCodec;
import io.podnuma.agent.checkpoint.CheckpointStore;
import io.podnuma.agent.checkpoint.TopologyFingerprint;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.pods.PodSource;
import io.podnuma.agent.runtime.CrashHost.DirFault;
import io.podnuma.agent.runtime.CrashHost.WriteFailure;
import io.podnuma.agent.runtime.Fence.CrashPoint;
import io.podnuma.agent.runtime.Fence.Port;
import io.podnuma.agent.runtime.Fence.When;
import io.podnuma.agent.runtime.core.Pin;
import io.podnuma.agent.runtime.leave.Shutdown;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.soak.ContainerSample;
import io.podnuma.testkit.soak.FaultDraw;
import io.podnuma.testkit.soak.FaultKind;
import io.podnuma.testkit.soak.Invariants;
import io.podnuma.testkit.soak.Record;
import io.podnuma.testkit.soak.Snapshot;
import io.podnuma.testkit.soak.SoakTally;
import io.podnuma.testkit.soak.Violation;
import io.podnuma.testkit.soak.ViolationKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The in-process crash soak: the real {@link NodeAgent} with a real {@link CheckpointStore} on a state directory of
 * the file system, in-memory pods ({@link FakePods}, the API server, which outlives every agent) and cgroups
 * ({@link CrashHost}), a seeded pod churn, and between churn steps faults drawn with {@link FaultDraw}. A crash stops
 * an incarnation at an exact point ({@link Fence}: the N-th cgroup write, before or after a checkpoint rename, in
 * the full sync, in the shutdown) and a new {@code NodeAgent} starts on the same state directory and host, as a
 * restarted process would.
 *
 * <p>After every step (one churn operation, one fault, one restart or one reconcile, each waited for) the soak samples
 * the host and the records and checks {@link Invariants} plus the stricter in-process one (a CPU the state gives one
 * owner is never held by the owner and someone else at once). The window runs on a logical clock of one second per
 * step: {@link #WINDOW} is one step, i.e. a container may be off its set at the sample of the step in which the agent
 * became able to pin (ready, cgroup writes working) and must be on it one step later. After each fault the soak
 * reconciles until the node converged (every cgroup as the state wants it, the checkpoint, the reports and
 * PodResources holding every pod the state holds) and records how long that took, in milliseconds and reconciles.
 */
final class CrashSoak {

    static final String NODE = "crash";
    static final Duration WINDOW = Duration.ofSeconds(1);
    static final int MAX_CONVERGE_RECONCILES = 5;
    static final int MAX_LIVE_PODS = 10;
    static final Duration READY_TIMEOUT = Duration.ofSeconds(10);

    /** Every kind the in-process driver offers (the control plane's faults are the process soak's). */
    static final List<FaultKind> KINDS = List.of(
            FaultKind.AGENT_KILL9,
            FaultKind.AGENT_KILL9_AT_START,
            FaultKind.AGENT_KILL9_DURING_SYNC,
            FaultKind.AGENT_KILL9_AT_CGROUP_WRITE,
            FaultKind.AGENT_KILL9_BEFORE_RENAME,
            FaultKind.AGENT_KILL9_AFTER_CHECKPOINT,
            FaultKind.AGENT_KILL9_DURING_SHUTDOWN,
            FaultKind.AGENT_SIGTERM,
            FaultKind.CGROUP_WRITE_EBUSY,
            FaultKind.CGROUP_WRITE_ENOSPC,
            FaultKind.CGROUP_WRITE_EACCES,
            FaultKind.STATE_DIR_FULL,
            FaultKind.STATE_DIR_READ_ONLY,
            FaultKind.CHECKPOINT_TRUNCATED,
            FaultKind.NODE_REBOOT,
            FaultKind.TOPOLOGY_CHANGE,
            FaultKind.NODE_LABEL_REMOVED);

    /** What a run found. */
    record Result(SoakTally tally, List<String> violations, String table, long steps, long restarts) {}

    private static final CgroupNaming NAMING = new CgroupNaming(CgroupDriver.SYSTEMD);
    private static final io.podnuma.agent.config.AgentConfig CONFIG =
            InMemoryAgent.podScopeConfig(NODE, SampleConfigs.reservedCpuCount(2));

    /** One agent process. */
    private static final class Incarnation {
        final Fence fence = new Fence();
        final CpuTopology topo;
        NodeAgent agent;
        volatile boolean ready;
        boolean closed;
        boolean sampled;

        Incarnation(CpuTopology topo) {
            this.topo = topo;
        }
    }

    private final Path stateDir;
    private final Random rnd;
    private final long seed;
    private final List<CpuTopology> machines;
    private final FakePods api = new FakePods();
    private final CrashHost host = new CrashHost();
    private final SoakTally tally = new SoakTally();
    private final Map<FaultKind, List<Integer>> reconciles = new EnumMap<>(FaultKind.class);
    private final List<String> violations = new ArrayList<>();
    private final Map<String, Integer> boots = new HashMap<>();
    private final Set<String> deleted = new TreeSet<>();
    /** Live pods the checkpoint on disk has held: every record must hold them for as long as they live. */
    private final Set<String> durable = new TreeSet<>();
    /** What the last incarnation's state held at its last sample (its records must keep it while it lives). */
    private Set<String> lastHeld = Set.of();

    private final Map<String, CpuSet> placement = new HashMap<>();
    private Map<String, Instant> offSince = Map.of();
    private Optional<Instant> writableSince = Optional.empty();
    private volatile NodeState reported;
    private int machine;
    private Incarnation current;
    private FaultKind cause;
    private boolean restartedInFault;
    private long tick;
    private long steps;
    private long restarts;
    private int created;
    private long bootNanos;
    /** Whether the crash just injected struck at its armed point; null for a fault without one. */
    private Boolean reached;
    /** For the next boot only: crash at the pod list (0) or at the n-th cgroup write after it; -1 not at all. */
    private int pendingListCrash = -1;

    /**
     * @param machines two sysfs topologies of one machine (the second with a CPU offline): TOPOLOGY_CHANGE switches
     */
    CrashSoak(Path stateDir, long seed, List<CpuTopology> machines) {
        this.stateDir = stateDir;
        this.seed = seed;
        this.rnd = new Random(seed);
        this.machines = List.copyOf(machines);
    }

    /**
     * How often a crash that missed its point is tried again before the run gives it up (and CrashSoakTest fails): a
     * try costs milliseconds, and a point drawn at random (a port, an n-th call) is reached one time in three or four.
     */
    static final int MAX_AGAIN = 20;

    Result run(int injections) {
        FaultDraw draw = new FaultDraw(KINDS, rnd);
        Map<FaultKind, Integer> again = new EnumMap<>(FaultKind.class);
        current = boot(null);
        try {
            for (int i = 0; i < injections; i++) {
                cause = null;
                int churn = 1 + rnd.nextInt(3);
                for (int c = 0; c < churn; c++) {
                    churnStep();
                }
                // Every kind once first, so even a short run covers them all; then the seeded draw by weight.
                FaultKind k = draw.next();
                cause = k;
                restartedInFault = false;
                tally.injected(k);
                long start = System.nanoTime();
                reached = null;
                inject(k);
                if (reached != null) {
                    // An armed point counts only where the run reached it; a miss is drawn again (a few times).
                    tally.aimed(k, reached);
                    if (!reached && tally.reached(k) == 0 && again.merge(k, 1, Integer::sum) <= MAX_AGAIN) {
                        draw.again(k);
                    }
                }
                converge(k, start);
                if (violations.size() > 20) {
                    break; // enough to debug; the seed replays the rest
                }
            }
        } finally {
            if (current != null && current.agent != null) {
                current.fence.kill("end of the soak");
                api.listener = null;
                current.agent.close();
            }
        }
        return new Result(tally, List.copyOf(violations), table(), steps, restarts);
    }

    // ---- the faults ----

    private void inject(FaultKind k) {
        switch (k) {
            case AGENT_KILL9 -> {
                Port[] ports = {
                    Port.CGROUP_WRITE,
                    Port.CGROUP_READ,
                    Port.CGROUP_SCAN,
                    Port.CHECKPOINT_DATA,
                    Port.CHECKPOINT_RENAME,
                    Port.NODE_STATE
                };
                Port p = ports[rnd.nextInt(ports.length)];
                crashWithin(new CrashPoint(p, current.fence.count(p) + 1 + rnd.nextInt(4), when()), 3);
            }
            case AGENT_KILL9_AT_CGROUP_WRITE ->
                crashWithin(
                        new CrashPoint(
                                Port.CGROUP_WRITE, current.fence.count(Port.CGROUP_WRITE) + 1 + rnd.nextInt(6), when()),
                        4);
            case AGENT_KILL9_BEFORE_RENAME ->
                crashWithin(
                        new CrashPoint(
                                Port.CHECKPOINT_RENAME, current.fence.count(Port.CHECKPOINT_RENAME) + 1, When.BEFORE),
                        4);
            case AGENT_KILL9_AFTER_CHECKPOINT ->
                crashWithin(
                        new CrashPoint(
                                Port.CHECKPOINT_RENAME, current.fence.count(Port.CHECKPOINT_RENAME) + 1, When.AFTER),
                        4);
            case AGENT_KILL9_AT_START -> {
                kill("kill before a start that crashes");
                Port[] ports = {
                    Port.CGROUP_SCAN,
                    Port.CGROUP_READ,
                    Port.CGROUP_WRITE,
                    Port.POD_LIST,
                    Port.CHECKPOINT_TEMP,
                    Port.CHECKPOINT_RENAME,
                    Port.NODE_STATE
                };
                Port p = ports[rnd.nextInt(ports.length)];
                reached = restart(new CrashPoint(p, 1 + rnd.nextInt(2), when()));
            }
            case AGENT_KILL9_DURING_SYNC -> {
                kill("kill before a start that crashes in the full sync");
                restartCrashingInSync();
            }
            case AGENT_KILL9_DURING_SHUTDOWN -> killDuringShutdown();
            case AGENT_SIGTERM -> {
                stopGracefully();
                restart(null);
            }
            case CGROUP_WRITE_EBUSY -> writesFail(WriteFailure.EBUSY);
            case CGROUP_WRITE_ENOSPC -> writesFail(WriteFailure.ENOSPC);
            case CGROUP_WRITE_EACCES -> writesFail(WriteFailure.EACCES);
            case STATE_DIR_FULL -> dirFails(DirFault.FULL);
            case STATE_DIR_READ_ONLY -> dirFails(DirFault.READ_ONLY);
            case CHECKPOINT_TRUNCATED -> {
                kill("kill before the checkpoint is truncated");
                truncateCheckpoint();
                restart(null);
            }
            case NODE_REBOOT -> {
                kill("the node goes down");
                reboot();
                restart(null);
            }
            case TOPOLOGY_CHANGE -> {
                if (rnd.nextBoolean()) {
                    stopGracefully();
                } else {
                    kill("kill before the machine changes");
                }
                changeMachine();
                restart(null);
            }
            case NODE_LABEL_REMOVED -> leaveWithTheRestoreCut();
            default -> throw new IllegalArgumentException("the in-process driver does not offer " + k);
        }
    }

    private When when() {
        return rnd.nextBoolean() ? When.BEFORE : When.AFTER;
    }

    /** Arms the crash, churns until it hits (at most {@code maxSteps} steps, then a plain kill), and restarts. */
    private void crashWithin(CrashPoint point, int maxSteps) {
        // The armed incarnation: a call that strikes restarts the agent at once (afterCall), so `current` is then a
        // new one, which must neither be churned on as if the crash were still to come nor killed as a miss.
        Incarnation armed = current;
        armed.fence.arm(point);
        for (int s = 0; s < maxSteps && !armed.fence.dead(); s++) {
            // Creating pods makes decisions, hence checkpoint and cgroup writes: the armed points are reached.
            churnStep(s == 0 ? 0 : -1);
        }
        reached = armed.fence.struck();
        if (!armed.fence.dead()) {
            kill("kill after " + point + " was not reached");
        }
        if (current.agent == null || current.fence.dead()) {
            restart(null);
        }
    }

    /**
     * The node leaves podnuma and the crash comes in its restore: the stop that gives every container everything back
     * ({@link Shutdown#RESTORE}) with a crash armed at one of its cgroup writes (the n-th from now, n up to one past
     * the containers' count: past the last write the restore finishes). What the design leaves (behaviour.md,
     * "Shutdown"): a finished restore, every container on every CPU and no checkpoint; a cut one, each container where
     * it was or on every CPU, and the checkpoint (deleted only after the writes), which the next start adopts. Then the
     * label is back and an agent starts.
     */
    private void leaveWithTheRestoreCut() {
        Incarnation inc = current;
        Map<CgroupPath, CpuSet> was = new HashMap<>();
        host.cgroups.values().forEach(c -> was.put(c.path, c.pin.cpus()));
        inc.fence.arm(new CrashPoint(
                Port.CGROUP_WRITE,
                inc.fence.count(Port.CGROUP_WRITE) + 1 + rnd.nextInt(host.cgroups.size() + 1),
                when()));
        try {
            inc.agent.stop(Shutdown.RESTORE);
            inc.closed = true;
        } catch (RuntimeException e) {
            if (!crashed(e)) {
                throw e;
            }
        }
        reached = inc.fence.struck();
        sampleDown();
        closeDead(inc);
        current = null;
        boolean finished = !reached;
        CpuSet everything = all().cpus();
        for (CrashHost.Cgroup c : host.cgroups.values()) {
            CpuSet before = was.getOrDefault(c.path, everything);
            if (!c.pin.cpus().equals(everything) && (finished || !c.pin.cpus().equals(before))) {
                violation(new Violation(
                        ViolationKind.RESTORE_LEFT_OTHERWISE,
                        c.podUid + "/" + c.container,
                        "after a " + (finished ? "finished" : "cut") + " restore it runs on " + c.pin.cpus()
                                + " (it was on " + before + ", everything is " + everything + ")"));
            }
        }
        if (finished == Files.exists(stateDir.resolve(CheckpointStore.DEFAULT_FILE_NAME))) {
            violation(new Violation(
                    ViolationKind.RESTORE_LEFT_OTHERWISE,
                    "checkpoint",
                    "the restore "
                            + (finished
                                    ? "finished and the checkpoint is still there"
                                    : "was cut and the checkpoint is gone")));
        }
        restart(null);
    }

    private void writesFail(WriteFailure f) {
        host.writeFailure = f;
        writableSince = Optional.empty();
        int n = 1 + rnd.nextInt(3);
        for (int s = 0; s < n; s++) {
            churnStep();
        }
        host.writeFailure = WriteFailure.NONE;
        writableSince = Optional.of(now());
    }

    /**
     * The state directory full or read-only for a while: the agent goes on deciding and pinning (the decisions stay
     * in memory and in the reports) and writes the checkpoint again as soon as it can; a crash meanwhile (one time in
     * three) restarts from the older checkpoint.
     */
    private void dirFails(DirFault f) {
        host.dirFault = f;
        int n = 1 + rnd.nextInt(3);
        for (int s = 0; s < n; s++) {
            churnStep(s == 0 ? 0 : -1);
        }
        if (rnd.nextInt(3) == 0) {
            kill("kill while the state directory is " + f);
            restart(null);
            churnStep();
        }
        host.dirFault = DirFault.NONE;
    }

    private void truncateCheckpoint() {
        Path file = stateDir.resolve(CheckpointStore.DEFAULT_FILE_NAME);
        try {
            if (Files.exists(file)) {
                long size = Files.size(file);
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    ch.truncate(size == 0 ? 0 : rnd.nextLong(size));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every container recreated with a new ID and its parent's sets; the pods and the checkpoint stay. */
    private void reboot() {
        Map<String, Pod> started = new LinkedHashMap<>();
        for (CrashHost.Cgroup c : host.cgroups.values()) {
            started.computeIfAbsent(c.podUid, uid -> api.pods.get(uid));
        }
        host.cgroups.clear();
        for (Pod p : started.values()) {
            if (p != null) {
                startContainers(p, boots.merge(p.getMetadata().getUid(), 1, Integer::sum), false);
            }
        }
    }

    /** The other machine: a CPU offline (its cgroups lose it, as the kernel does) or back online. */
    private void changeMachine() {
        machine = 1 - machine;
        CpuSet online = machines.get(machine).onlineCpus();
        for (CrashHost.Cgroup c : host.cgroups.values()) {
            CpuSet left = c.pin.cpus().intersection(online);
            c.pin = new Pin(left.isEmpty() ? online : left, c.pin.mems());
            c.written = c.written && !left.isEmpty();
        }
    }

    // ---- incarnations ----

    private Incarnation boot(CrashPoint armed) {
        Incarnation inc = new Incarnation(machines.get(machine));
        if (armed != null) {
            inc.fence.arm(armed);
        }
        CrashHost.Ports ports = host.portsOf(inc.fence);
        inc.agent = new InMemoryAgent(NODE, inc.topo, CONFIG, NAMING, ports.pins(), ports.scan(), stateDir, podsOf(inc))
                .withCheckpointFiles(ports.checkpointFiles())
                .withReports(r -> inc.fence.call(Port.NODE_STATE, () -> {
                    reported = r.node().state();
                    return null;
                }))
                .withSyncLog(Duration.ofSeconds(5))
                .build();
        restarts++;
        long t0 = System.nanoTime();
        try {
            inc.agent.start();
            long until = System.nanoTime() + READY_TIMEOUT.toNanos();
            while (!inc.fence.dead() && !inc.agent.awaitReady(Duration.ofMillis(2))) {
                if (System.nanoTime() > until) {
                    violation(new Violation(
                            ViolationKind.OUTSIDE_SET_TOO_LONG,
                            "agent",
                            "not ready " + READY_TIMEOUT + " after start"));
                    break;
                }
            }
            if (!inc.fence.dead()) {
                inc.agent.drain();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (RuntimeException e) {
            if (!crashed(e)) {
                throw e;
            }
        }
        bootNanos += System.nanoTime() - t0;
        inc.ready = !inc.fence.dead();
        if (inc.ready && host.writeFailure == WriteFailure.NONE) {
            writableSince = Optional.of(now());
        }
        return inc;
    }

    /**
     * A new incarnation; one that crashes in its start is followed by another, unarmed.
     *
     * @return whether the first one crashed at {@code armed}
     */
    private boolean restart(CrashPoint armed) {
        if (current != null && current.fence.dead()) {
            closeDead(current);
        }
        if (cause != null) {
            restartedInFault = true;
        }
        current = boot(armed);
        boolean crashed = current.fence.struck();
        if (crashed) {
            sampleDown();
            closeDead(current);
            current = boot(null);
        }
        sample();
        return crashed;
    }

    private void restartCrashingInSync() {
        if (current != null) {
            closeDead(current);
        }
        restartedInFault = true;
        // Armed when the pod list is handed out: the n-th cgroup write from then on, or right at the list.
        int n = rnd.nextInt(4);
        current = bootArmedAtList(n);
        reached = current.fence.dead();
        // (the crash at the list itself is the driver's kill inside the list call: at the point, as armed)
        if (current.fence.dead()) {
            sampleDown();
            closeDead(current);
            current = boot(null);
        } else {
            kill("kill after a full sync that made fewer than " + n + " cgroup writes");
            current = boot(null);
        }
        sample();
    }

    private Incarnation bootArmedAtList(int nthWrite) {
        pendingListCrash = nthWrite;
        try {
            return boot(null);
        } finally {
            pendingListCrash = -1;
        }
    }

    private PodSource podsOf(Incarnation inc) {
        int listCrash = pendingListCrash;
        return new PodSource() {
            @Override
            public void start(Listener l) {
                api.start(l);
            }

            @Override
            public boolean awaitSynced(Duration timeout) {
                return true;
            }

            @Override
            public List<Pod> list() {
                return inc.fence.call(Port.POD_LIST, () -> {
                    if (listCrash == 0) {
                        inc.fence.kill("at the pod list of the full sync");
                    } else if (listCrash > 0) {
                        inc.fence.arm(new CrashPoint(
                                Port.CGROUP_WRITE, inc.fence.count(Port.CGROUP_WRITE) + listCrash, When.BEFORE));
                    }
                    return api.list();
                });
            }

            @Override
            public void close() {}
        };
    }

    private void kill(String why) {
        if (current == null) {
            return;
        }
        current.fence.kill(why);
        sampleDown();
        closeDead(current);
    }

    private void killDuringShutdown() {
        Incarnation inc = current;
        Thread stopper = new Thread(
                () -> {
                    try {
                        inc.agent.stop(Shutdown.KEEP_PINS);
                    } catch (RuntimeException e) {
                        if (!crashed(e)) {
                            throw e;
                        }
                    }
                },
                "crash-soak-stop");
        stopper.start();
        if (rnd.nextBoolean()) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
        // In the shutdown only if the stop has not ended by the kill.
        reached = stopper.isAlive();
        inc.fence.kill("during the shutdown");
        try {
            stopper.join(READY_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        api.listener = null;
        sampleDown();
        closeDead(inc);
        current = null;
        restart(null);
    }

    private void stopGracefully() {
        current.agent.stop(Shutdown.KEEP_PINS);
        current.fence.kill("stopped");
        current.closed = true;
        api.listener = null;
        writableSince = Optional.empty();
        sampleDown();
        current = null;
    }

    private void closeDead(Incarnation inc) {
        inc.fence.kill("closed");
        api.listener = null;
        writableSince = Optional.empty();
        if (!inc.closed) {
            inc.closed = true;
            inc.agent.close();
        }
    }

    private static boolean crashed(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof Fence.Crashed) {
                return true;
            }
        }
        return false;
    }

    // ---- the churn ----

    private void churnStep() {
        churnStep(-1);
    }

    /** One churn operation, waited for, then a sample; {@code forced} 0 makes it a pod creation. */
    private void churnStep(int forced) {
        List<Pod> live = livePods();
        int op = forced >= 0 ? forced : rnd.nextInt(10);
        if (op < 4 && live.size() >= MAX_LIVE_PODS) {
            op = 7;
        }
        List<Pod> notStarted = live.stream().filter(p -> p.getStatus() == null).toList();
        if (op < 4 || live.isEmpty()) {
            String name = "p" + created++;
            api.put(NodeAgentChurnTest.randomPod(rnd, name));
        } else if (op < 7 && !notStarted.isEmpty()) {
            startContainers(notStarted.get(rnd.nextInt(notStarted.size())), 0, true);
        } else if (op < 9) {
            deletePod(live.get(rnd.nextInt(live.size())));
        } else {
            List<CrashHost.Cgroup> cgroups = List.copyOf(host.cgroups.values());
            if (!cgroups.isEmpty()) {
                CrashHost.Cgroup c = cgroups.get(rnd.nextInt(cgroups.size()));
                c.pin = all(); // someone else widens it; the reconcile of this step repairs it
                c.written = false;
            }
            onAgent(NodeAgent::reconcileNow);
        }
        onAgent(NodeAgent::drain);
        sample();
    }

    private List<Pod> livePods() {
        return api.list();
    }

    /** The pod's containers start: their cgroups appear with the parent's sets, the status names them. */
    private void startContainers(Pod p, int boot, boolean tell) {
        Pod withStatus = RuntimeFixtures.withStatus(p);
        if (boot > 0) {
            for (ContainerStatus s : allStatuses(withStatus)) {
                s.setContainerID("containerd://"
                        + RuntimeFixtures.sha256(p.getMetadata().getUid() + "/" + s.getName() + "/" + boot));
            }
        }
        boolean statusFirst = rnd.nextBoolean();
        if (statusFirst || !tell) {
            api.put(withStatus);
        }
        for (ContainerStatus s : allStatuses(withStatus)) {
            ContainerCgroup c = new ContainerCgroup(
                    qos(withStatus), p.getMetadata().getUid(), ContainerId.parse(s.getContainerID()));
            CgroupPath path = NAMING.containerPath(c);
            host.cgroups.put(path, new CrashHost.Cgroup(p.getMetadata().getUid(), s.getName(), c, path, all()));
            if (tell) {
                onAgentAsync(a -> a.containerAppeared(c, path, System.nanoTime()));
            }
        }
        if (!statusFirst && tell) {
            api.put(withStatus);
        }
    }

    private void deletePod(Pod p) {
        String uid = p.getMetadata().getUid();
        deleted.add(uid);
        durable.remove(uid);
        placement.remove(uid);
        api.remove(p);
        host.cgroups.values().removeIf(c -> {
            if (c.podUid.equals(uid)) {
                onAgentAsync(a -> a.containerRemoved(c.path));
                return true;
            }
            return false;
        });
    }

    private Pin all() {
        CpuTopology topo = machines.get(machine);
        return new Pin(topo.onlineCpus(), RuntimeFixtures.allMems(topo));
    }

    /** Runs {@code call} on the live incarnation; one that dies in it is restarted. */
    private void onAgent(java.util.function.Consumer<NodeAgent> call) {
        if (current == null || current.fence.dead()) {
            return;
        }
        try {
            call.accept(current.agent);
        } catch (RuntimeException e) {
            if (!crashed(e)) {
                throw e;
            }
        }
        afterCall();
    }

    private void onAgentAsync(java.util.function.Consumer<NodeAgent> call) {
        if (current != null && !current.fence.dead()) {
            call.accept(current.agent);
        }
    }

    /** A crash point reached in the last call: the host as the dead incarnation left it, then a restart. */
    private void afterCall() {
        if (current != null && current.fence.dead()) {
            sampleDown();
            restart(null);
        }
    }

    // ---- convergence ----

    private void converge(FaultKind k, long startNanos) {
        if (current == null || current.fence.dead()) {
            restart(null);
        }
        for (int r = 0; ; r++) {
            Optional<String> why = notConverged();
            if (why.isEmpty()) {
                tally.converged(k, Duration.ofNanos(System.nanoTime() - startNanos));
                reconciles.computeIfAbsent(k, x -> new ArrayList<>()).add(r);
                return;
            }
            if (r == MAX_CONVERGE_RECONCILES) {
                violation(new Violation(
                        ViolationKind.OUTSIDE_SET_TOO_LONG,
                        "node",
                        "not converged " + r + " reconciles after " + k + ": " + why.get()));
                return;
            }
            onAgent(NodeAgent::reconcileNow);
            sample();
        }
    }

    private Optional<String> notConverged() {
        if (current == null || !current.ready || current.fence.dead()) {
            return Optional.of("the agent is not running");
        }
        NodeState state = current.agent.state();
        for (CrashHost.Cgroup c : host.cgroups.values()) {
            Pin want = expected(state, c);
            if (!want.equals(c.pin)) {
                return Optional.of(c.path + " holds " + c.pin + ", the state wants " + want);
            }
        }
        Set<String> held = state.pods().keySet();
        Optional<NodeState> disk = checkpoint();
        if (disk.isEmpty() || !disk.get().equals(state)) {
            return Optional.of(
                    "the checkpoint is not the state: " + disk.map(s -> s.pods().keySet()));
        }
        if (reported == null || !reported.pods().keySet().equals(held)) {
            return Optional.of("NumaNodeState holds "
                    + (reported == null ? "nothing" : reported.pods().keySet()));
        }
        if (!current.agent.snapshot().state().pods().keySet().equals(held)) {
            return Optional.of("PodResources answers from another state");
        }
        return Optional.empty();
    }

    private Pin expected(NodeState state, CrashHost.Cgroup c) {
        CpuSet mems = RuntimeFixtures.allMems(current.topo);
        PodAssignment pod = state.pods().get(c.podUid);
        if (pod == null || pod.container(c.container).isEmpty()) {
            return new Pin(state.sharedPool(), mems);
        }
        ContainerAssignment a = pod.container(c.container).orElseThrow();
        CpuSet m = a.memoryNodes().isEmpty() ? mems : CpuSet.of(a.memoryNodes().nodes());
        return new Pin(state.cpusOf(pod, a), m);
    }

    // ---- samples ----

    private Instant now() {
        return Instant.EPOCH.plusSeconds(tick);
    }

    /** The agent is down: the host against the checkpoint it left (the window does not run). */
    private void sampleDown() {
        tick++;
        steps++;
        checkpoint().ifPresent(s -> check(s, Optional.empty(), Map.of(), Set.of(), false));
    }

    private void sample() {
        tick++;
        steps++;
        if (current == null || !current.ready || current.fence.dead()) {
            sampleDown();
            return;
        }
        NodeState state;
        try {
            state = current.agent.state();
        } catch (RuntimeException e) {
            if (crashed(e)) {
                return;
            }
            throw e;
        }
        Map<Record, Set<String>> records = new EnumMap<>(Record.class);
        records.put(
                Record.POD_RESOURCES, current.agent.snapshot().state().pods().keySet());
        if (reported != null) {
            records.put(Record.NUMA_NODE_STATE, reported.pods().keySet());
        }
        if (host.dirFault == DirFault.NONE) {
            // While the directory is full or read-only the file cannot follow; the agent's own records must.
            checkpoint().ifPresent(s -> records.put(Record.CHECKPOINT, s.pods().keySet()));
        }
        if (!current.sampled) {
            current.sampled = true;
            notReadmitted(state);
        }
        Set<String> hold = new TreeSet<>(durable);
        hold.addAll(lastHeld);
        check(state, writableSince, records, hold, true);
        lastHeld = Set.copyOf(state.pods().keySet());
        Optional.ofNullable(records.get(Record.CHECKPOINT))
                .ifPresent(
                        onDisk -> onDisk.stream().filter(api.pods::containsKey).forEach(durable::add));
        placements(state);
    }

    /**
     * The first sample of a new incarnation: pods the last one held that this one does not. A pod the checkpoint held
     * must be held again (else the check reports it lost), except where the fault took the checkpoint or the machine
     * away; a pod only the dead incarnation's memory held (the checkpoint write failed or had not happened) may be
     * refused after the restart when the free CPUs fall differently: a placement change, counted with its cause.
     */
    private void notReadmitted(NodeState state) {
        boolean recordGone = cause != null && cause.mayMovePins();
        Set<String> before = new TreeSet<>(lastHeld);
        before.addAll(durable);
        for (String uid : before) {
            if (!api.pods.containsKey(uid) || state.pods().containsKey(uid)) {
                continue;
            }
            if (durable.contains(uid) && !recordGone) {
                continue;
            }
            durable.remove(uid);
            tally.placementChanged((cause == null ? "churn" : cause.name().toLowerCase(java.util.Locale.ROOT))
                    + ": not admitted again after the restart ("
                    + (recordGone
                            ? "the checkpoint or the machine changed"
                            : "its allocation was not in the checkpoint")
                    + ")");
        }
        lastHeld = Set.of();
    }

    private void check(
            NodeState state,
            Optional<Instant> since,
            Map<Record, Set<String>> records,
            Set<String> hold,
            boolean alive) {
        List<ContainerSample> containers = new ArrayList<>();
        for (CrashHost.Cgroup c : host.cgroups.values()) {
            containers.add(new ContainerSample(
                    c.podUid,
                    c.container,
                    c.cgroup.containerId().toString(),
                    SoakExpectations.cpuList(c.pin.cpus()),
                    List.of()));
        }
        Set<String> livePods = new TreeSet<>(api.pods.keySet());
        Snapshot s = new Snapshot(
                now(), containers, SoakExpectations.exclusiveByContainer(state), since, livePods, records, hold);
        Invariants.Result r = Invariants.check(s, offSince, WINDOW);
        offSince = r.offSince();
        r.violations().forEach(this::violation);
        if (alive) {
            heldTwice(state).forEach(this::violation);
        }
    }

    /**
     * A CPU that the state gives one owner held by that owner and by a container of anyone else at once, among the
     * cpusets the agent wrote ({@link io.podnuma.agent.runtime.pin.PinPlan}: a container never gains a CPU another
     * still holds, even when writes fail).
     */
    private List<Violation> heldTwice(NodeState state) {
        Map<Integer, String> ownerOf = new HashMap<>();
        for (PodAssignment pod : state.pods().values()) {
            pod.exclusiveCpus().forEach(cpu -> ownerOf.put(cpu, pod.ref().uid()));
        }
        Map<Integer, Set<String>> holders = new TreeMap<>();
        for (CrashHost.Cgroup c : host.cgroups.values()) {
            if (!c.written) {
                continue; // the parent's sets or someone else's change: the window's business
            }
            c.pin.cpus().forEach(cpu -> {
                if (ownerOf.containsKey(cpu)) {
                    holders.computeIfAbsent(cpu, x -> new TreeSet<>()).add(c.podUid);
                }
            });
        }
        List<Violation> out = new ArrayList<>();
        holders.forEach((cpu, pods) -> {
            String owner = ownerOf.get(cpu);
            if (pods.contains(owner) && pods.size() > 1) {
                out.add(new Violation(
                        ViolationKind.CPU_EXCLUSIVE_TO_TWO,
                        "cpu " + cpu,
                        "exclusive to pod " + owner + " and held by it and by " + pods));
            }
        });
        return out;
    }

    /** Pods of the state whose exclusive CPUs changed; one the state lost is {@link #notReadmitted}'s to count. */
    private void placements(NodeState state) {
        placement.keySet().retainAll(state.pods().keySet());
        for (String uid : state.pods().keySet()) {
            CpuSet now = state.pods().get(uid).exclusiveCpus();
            CpuSet before = placement.get(uid);
            if (before != null && !before.isEmpty() && !before.equals(now)) {
                tally.placementChanged(why(now));
            }
            placement.put(uid, now);
        }
    }

    private String why(CpuSet now) {
        String what = now.isEmpty() ? "lost its exclusive CPUs" : "moved to other exclusive CPUs";
        if (cause == null) {
            return "churn: " + what;
        }
        String how = switch (cause) {
            case CHECKPOINT_TRUNCATED -> "rebuilt from the running pods";
            case TOPOLOGY_CHANGE -> "re-admitted on the other machine";
            case NODE_LABEL_REMOVED -> "the node left podnuma and came back";
            case STATE_DIR_FULL, STATE_DIR_READ_ONLY ->
                restartedInFault ? "restarted from a checkpoint older than the state" : "while running";
            default -> restartedInFault ? "re-admitted after the restart" : "while running";
        };
        return cause.name().toLowerCase(java.util.Locale.ROOT) + ": " + what + " (" + how + ")";
    }

    private Optional<NodeState> checkpoint() {
        Path file = stateDir.resolve(CheckpointStore.DEFAULT_FILE_NAME);
        try {
            return Optional.of(
                    CheckpointCodec.decode(Files.readAllBytes(file), TopologyFingerprint.of(machines.get(machine)))
                            .state());
        } catch (Exception e) {
            return Optional.empty(); // missing, truncated by the soak, or of the other machine
        }
    }

    private void violation(Violation v) {
        String line = "seed " + seed + " step " + steps + " (" + (cause == null ? "churn" : cause) + "): " + v;
        violations.add(line);
        tally.violated(cause == null ? FaultKind.AGENT_KILL9 : cause, v);
    }

    // ---- the table ----

    private String table() {
        StringBuilder b = new StringBuilder(tally.render());
        b.append(String.format("%-30s %10s %10s %10s%n", "reconciles to converge", "p50", "p99", "max"));
        reconciles.forEach((k, rs) -> {
            List<Integer> sorted = rs.stream().sorted().toList();
            b.append(String.format(
                    "%-30s %10d %10d %10d%n",
                    k.name().toLowerCase(java.util.Locale.ROOT),
                    rank(sorted, 0.5),
                    rank(sorted, 0.99),
                    sorted.getLast()));
        });
        b.append(String.format(
                "%d ms in agent starts; %d steps sampled, %d agent starts, %d cgroup writes (%d failed), %d checkpoint steps failed%n",
                bootNanos / 1_000_000,
                steps,
                restarts,
                host.cgroupWrites,
                host.failedCgroupWrites,
                host.failedCheckpointSteps));
        return b.toString();
    }

    private static int rank(List<Integer> sorted, double q) {
        int r = (int) Math.ceil(q * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, r - 1)));
    }
}
