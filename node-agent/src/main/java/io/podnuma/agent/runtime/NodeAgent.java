package io.podnuma.agent.runtime;

import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.cgroup.partition.PartitionFiles;
import io.podnuma.agent.cgroup.partition.PartitionType;
import io.podnuma.agent.cgroup.watch.ContainerCgroupListener;
import io.podnuma.agent.cgroup.watch.FoundContainer;
import io.podnuma.agent.checkpoint.CheckpointStore;
import io.podnuma.agent.config.ExclusiveCpuQuota;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.kubelet.KubeletCheck;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.podresources.DeviceSource;
import io.podnuma.agent.podresources.PodResourcesSnapshot;
import io.podnuma.agent.pods.PodMapper;
import io.podnuma.agent.pods.PodSource;
import io.podnuma.agent.runtime.birth.BirthDecision;
import io.podnuma.agent.runtime.core.Pin;
import io.podnuma.agent.runtime.core.PinWriter;
import io.podnuma.agent.runtime.core.RuntimeEvents;
import io.podnuma.agent.runtime.core.RuntimeRecord;
import io.podnuma.agent.runtime.host.CpusetReads;
import io.podnuma.agent.runtime.host.HostContainer;
import io.podnuma.agent.runtime.leave.Shutdown;
import io.podnuma.agent.runtime.loop.AgentLoop;
import io.podnuma.agent.runtime.loop.Lifecycle;
import io.podnuma.agent.runtime.pin.WriteMode;
import io.podnuma.agent.runtime.recovery.Recovery;
import io.podnuma.agent.runtime.status.AgentReport;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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

    /**
     * @param admission what a refused pod gets: {@link AdmissionAction#EVICT} evicts it, otherwise it runs unpinned
     * @param exclusiveCpuQuota {@link ExclusiveCpuQuota#DISABLE} turns off the CFS quota of exclusive containers
     * @param partition the cpuset partition each exclusive slice becomes ({@code cpuManager.partition}); empty: none
     */
    public record Settings(
            String nodeName,
            Optional<String> policyName,
            String configHash,
            AdmissionAction admission,
            ExclusiveCpuQuota exclusiveCpuQuota,
            Duration reconcilePeriod,
            Duration syncTimeoutLog,
            Optional<PartitionType> partition) {

        public Settings {
            Objects.requireNonNull(nodeName, "nodeName");
            Objects.requireNonNull(policyName, "policyName");
            Objects.requireNonNull(configHash, "configHash");
            Objects.requireNonNull(admission, "admission");
            Objects.requireNonNull(exclusiveCpuQuota, "exclusiveCpuQuota");
            Objects.requireNonNull(reconcilePeriod, "reconcilePeriod");
            Objects.requireNonNull(syncTimeoutLog, "syncTimeoutLog");
            Objects.requireNonNull(partition, "partition");
        }
    }

    /** What the agent is made of; of these the runtime closes only the pod source it started. */
    public record Parts(
            CpuTopology topology,
            NodeAllocator allocator,
            PodMapper mapper,
            CgroupNaming naming,
            PinWriter pins,
            PartitionFiles partitions,
            Supplier<List<FoundContainer>> scan,
            CheckpointStore checkpoints,
            PodSource pods,
            RuntimeEvents events,
            Consumer<AgentReport> reports,
            AgentMetrics metrics,
            Supplier<KubeletCheck> kubelet,
            DeviceSource devices,
            Runnable markReady,
            Clock clock) {}

    private final Parts parts;
    private final AgentSteps steps;
    private volatile RuntimeRecord record = RuntimeRecord.NONE;

    public NodeAgent(Settings settings, Parts parts) {
        this.parts = parts;
        this.steps = AgentSteps.wire(settings, parts);
        steps.loop().afterEach(this::published);
    }

    /**
     * Loads the checkpoint, starts the pod source and returns; the full sync follows when the pod list arrives
     * ({@link #awaitReady}).
     */
    public void start() {
        steps.lifecycle()
                .start(new Lifecycle.Steps(
                        this::recover, steps.podEvents(), steps.firstList()::arrived, steps.reconcile()::run));
    }

    /**
     * The pin of a container the runtime is about to create, from any thread and at once (never waits for the loop
     * or the API server): what the cgroup path would write for it.
     */
    public BirthDecision atCreation(String podUid, String container) {
        return steps.birth().decide(podUid, container);
    }

    /**
     * The runtime's own record of cpusets (NRI), told of every write after the task that made it; CPUs its unanswered
     * updates carry are kept from other containers. Set before {@link #start}.
     */
    public void recordIn(RuntimeRecord runtime) {
        this.record = Objects.requireNonNull(runtime, "runtime");
        steps.pins().runtimePending(runtime::pending);
    }

    /** The runtime has answered its updates of {@code containers} (or given up on them): they are read again. */
    public void runtimeApplied(Collection<ContainerId> containers) {
        List<ContainerId> ids = List.copyOf(containers);
        steps.loop()
                .execute(
                        "the runtime's updates of " + ids.size() + " containers",
                        () -> steps.pins().runtimeApplied(steps.node().state(), ids));
    }

    /**
     * The containers on the host when the agent starts watching them (the watch's first listing), seen at
     * {@code seenNanos} ({@link System#nanoTime()}). Reads the ones the full sync has not read yet and pins them in
     * one pass; each that holds its pin counts in the pin latency as a container the watch reported does. One by one,
     * each would plan over every container the agent knows, which made a start on a node of 430 containers spend most
     * of its loop's time there (issue 13).
     */
    public void onHost(List<FoundContainer> containers, long seenNanos) {
        List<FoundContainer> found = List.copyOf(containers);
        steps.loop().execute("the " + found.size() + " containers on the host", () -> {
            List<HostContainer> read = new ArrayList<>();
            for (FoundContainer f : found) {
                steps.hostScan().listed(f).ifPresent(read::add);
            }
            NodeState state = steps.node().state();
            steps.pins().all(state);
            Duration latency = Duration.ofNanos(System.nanoTime() - seenNanos);
            for (HostContainer hc : read) {
                if (steps.pins().holdsWanted(state, hc)) {
                    parts.metrics().pinLatency(latency);
                }
            }
        });
    }

    /** What the watch on the host's cgroup tree tells, handed to this agent. */
    public ContainerCgroupListener cgroupEvents() {
        return new ContainerCgroupListener() {
            @Override
            public void containerAppeared(ContainerCgroup container, CgroupPath path, long seenNanos) {
                NodeAgent.this.containerAppeared(container, path, seenNanos);
            }

            @Override
            public void containersFound(List<FoundContainer> found, long seenNanos) {
                onHost(found, seenNanos);
            }

            @Override
            public void containerRemoved(ContainerCgroup container, CgroupPath path, long seenNanos) {
                NodeAgent.this.containerRemoved(path);
            }

            @Override
            public void cpusetWritten(ContainerCgroup container, CgroupPath path) {
                NodeAgent.this.cpusetWritten(path);
            }

            @Override
            public void cpusetUnwatched(ContainerCgroup container, CgroupPath path) {
                NodeAgent.this.cpusetUnwatched(path);
            }

            @Override
            public void eventsLost() {
                cpusetReportsLost();
            }
        };
    }

    /** A container cgroup appeared on the host; {@code seenNanos} is {@link System#nanoTime()} when it was seen. */
    public void containerAppeared(ContainerCgroup cgroup, CgroupPath path, long seenNanos) {
        steps.loop().execute("new container " + path, () -> pinNew(new FoundContainer(cgroup, path), seenNanos));
    }

    public void containerRemoved(CgroupPath path) {
        steps.reads().removed(path);
        steps.loop().executeAlways(() -> steps.host().forget(path));
    }

    /**
     * Writes to container cpusets are reported from now on ({@link #cpusetWritten}, {@link #cpusetUnwatched},
     * {@link #cpusetReportsLost}): the reconcile tick reads back only what was written, and everything once a minute
     * ({@link CpusetReads}). Without this call it reads every container every tick.
     */
    public void watchCpusets() {
        steps.reads().watch();
    }

    /** A cpuset file of a container was written (by anyone); any thread. */
    public void cpusetWritten(CgroupPath path) {
        steps.reads().written(path);
    }

    /** Writes to this container's cpuset cannot be reported: the tick reads it every time. */
    public void cpusetUnwatched(CgroupPath path) {
        steps.reads().unwatched(path);
    }

    /** Reports of writes may have been lost: the next tick reads everything. */
    public void cpusetReportsLost() {
        steps.reads().lost();
    }

    /** What PodResources answers from; replaced after every decision. */
    public PodResourcesSnapshot snapshot() {
        return steps.status().snapshot();
    }

    public boolean isReady() {
        return steps.node().synced();
    }

    public boolean awaitReady(Duration timeout) throws InterruptedException {
        return steps.node().awaitSynced(timeout);
    }

    /** The node state as the loop holds it now. */
    public NodeState state() {
        return steps.loop().call(() -> steps.node().state());
    }

    /** Runs a reconcile pass now and waits for it (what the tick does). */
    public void reconcileNow() {
        steps.loop().run(steps.reconcile()::run);
    }

    /** Waits until everything submitted so far has been handled. */
    public void drain() {
        steps.loop().call(() -> null);
    }

    /** Stops the agent; with {@link Shutdown#RESTORE} every container first gets everything back. */
    public void stop(Shutdown how) {
        steps.lifecycle().stop(() -> {
            if (how == Shutdown.RESTORE) {
                restore();
            }
            steps.gate().halt();
        });
        close();
    }

    @Override
    public void close() {
        steps.lifecycle().close();
        steps.recovery().close();
    }

    // ---- the steps of our own, on the loop thread ----

    private void recover() {
        Recovery.Recovered recovered = steps.recovery().recover();
        steps.node().state(recovered.state());
        steps.node().markRecovered();
        if (recovered.start() == WriteMode.REBUILDING) {
            steps.gate().rebuild();
        } else {
            steps.gate().follow();
        }
        steps.status().publish(recovered.state(), steps.pods());
    }

    private void published() {
        steps.birth()
                .publish(
                        steps.node().state(),
                        steps.gate(),
                        steps.host(),
                        steps.pins().pendingCpus(),
                        steps.node().recovered());
        Map<ContainerId, Pin> w = steps.pins().drainWritten();
        if (!w.isEmpty()) {
            record.written(w);
        }
    }

    private void pinNew(FoundContainer f, long seenNanos) {
        // Also before the first full sync: a pod the checkpoint does not know runs on the shared pool until then.
        steps.hostScan().discovered(f).ifPresent(hc -> {
            if (steps.pins().wanted(steps.node().state(), hc)) {
                parts.metrics().pinLatency(Duration.ofNanos(System.nanoTime() - seenNanos));
            }
        });
    }

    private void restore() {
        int restored = steps.pins()
                .restore(
                        steps.node().state(),
                        steps.targets().everything(parts.topology().onlineCpus()));
        steps.recovery().delete();
        LOG.info("the node left podnuma: {} containers got every CPU and memory node back", restored);
    }
}
