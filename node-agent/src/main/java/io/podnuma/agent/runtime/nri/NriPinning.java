package io.podnuma.agent.runtime.nri;

import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.cgroup.ContainerRuntime;
import io.podnuma.agent.cgroup.InvalidCgroupNameException;
import io.podnuma.agent.config.ExclusiveCpuQuota;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.metrics.NriCall;
import io.podnuma.agent.metrics.NriResult;
import io.podnuma.agent.nri.CreateResult;
import io.podnuma.agent.nri.NriEvent;
import io.podnuma.agent.nri.NriHandler;
import io.podnuma.agent.nri.NriPlugin;
import io.podnuma.agent.nri.RuntimeInfo;
import io.podnuma.agent.nri.SynchronizeResult;
import io.podnuma.agent.runtime.birth.BirthDecision;
import io.podnuma.agent.runtime.core.Pin;
import io.podnuma.agent.runtime.core.RuntimeRecord;
import io.podnuma.nri.v1alpha1.Container;
import io.podnuma.nri.v1alpha1.ContainerAdjustment;
import io.podnuma.nri.v1alpha1.ContainerUpdate;
import io.podnuma.nri.v1alpha1.LinuxCPU;
import io.podnuma.nri.v1alpha1.LinuxContainerAdjustment;
import io.podnuma.nri.v1alpha1.LinuxContainerUpdate;
import io.podnuma.nri.v1alpha1.LinuxResources;
import io.podnuma.nri.v1alpha1.OptionalInt64;
import io.podnuma.nri.v1alpha1.PodSandbox;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent as the container runtime's NRI plugin: a container being created gets, in the runtime's
 * CreateContainer call, the cpuset the agent has already decided for it ({@link BirthDecision}), so its cgroup is
 * born pinned; a kubelet update that would change a pinned cpuset is rewritten; cpusets the cgroup path changes
 * later (a shared pool that shrinks or grows) are told to the runtime, so its own record of each container agrees.
 * Nothing here waits for the agent's loop or the API server.
 */
public final class NriPinning implements NriHandler, RuntimeRecord {

    private static final Logger LOG = LoggerFactory.getLogger(NriPinning.class);
    /** {@code cpu.cfs_quota_us} of -1: no CFS quota (a container that owns its CPUs is not throttled on them). */
    private static final long NO_QUOTA = -1;

    private final BiFunction<String, String, BirthDecision> decisions;
    private final ExclusiveCpuQuota quota;
    private final AgentMetrics metrics;
    /** The containers the runtime told us of (Synchronize, CreateContainer) and has not removed. */
    private final Set<String> known = ConcurrentHashMap.newKeySet();

    private volatile NriPlugin plugin;
    /** The connected runtime's kind, naming the containers of its events; empty before Configure or when unknown. */
    private volatile Optional<ContainerRuntime> runtimeKind = Optional.empty();

    private volatile Consumer<Collection<ContainerId>> applied = ids -> {};
    /** Updates written but not sent yet (one batch is in flight at a time, so the runtime applies them in order). */
    private final Map<ContainerId, Pin> queued = new LinkedHashMap<>();
    /**
     * The runtime's own updates (the kubelet's) answered with a pin and not applied yet (no PostUpdateContainer): the
     * CPUs the runtime is about to write into each container.
     */
    private final Map<ContainerId, Updating> updating = new ConcurrentHashMap<>();

    /**
     * How long an answered update of the runtime's counts as on its way: the runtime applies it within its own request
     * handling; one it gave up on sends no PostUpdateContainer, and its entry must not keep CPUs from others for long.
     */
    private static final Duration UPDATE_IN_FLIGHT = Duration.ofSeconds(10);

    /** An update of the runtime's answered with {@code cpus} at {@code answeredNanos}. */
    private record Updating(CpuSet cpus, long answeredNanos) {}
    /** The batch the runtime has not answered yet; guarded by {@link #queued}. */
    private Map<ContainerId, Pin> inFlight = Map.of();

    /** @param decisions pod UID and container name → the agent's decision ({@code NodeAgent::atCreation}) */
    public NriPinning(
            BiFunction<String, String, BirthDecision> decisions, ExclusiveCpuQuota quota, AgentMetrics metrics) {
        this.decisions = decisions;
        this.quota = quota;
        this.metrics = metrics;
    }

    /** The plugin whose connection {@link #written} sends unsolicited updates through. */
    public void plugin(NriPlugin plugin) {
        this.plugin = plugin;
    }

    /** Told which containers the runtime has answered updates of (or given up on): {@code NodeAgent::runtimeApplied}. */
    public void onApplied(Consumer<Collection<ContainerId>> listener) {
        this.applied = listener;
    }

    @Override
    public void connected(RuntimeInfo runtime) {
        runtimeKind = Arrays.stream(ContainerRuntime.values())
                .filter(r -> r.scheme().equals(runtime.name()))
                .findFirst();
        metrics.nriConnected(true);
        metrics.nriRequest(NriCall.CONFIGURE, NriResult.OK, Duration.ZERO);
        LOG.info(
                "registered as an NRI plugin of {} {} (NRI {}; it waits {} ms for each answer)",
                runtime.name(),
                runtime.version(),
                runtime.nriVersion().orElse("before v0.12"),
                runtime.requestTimeout().toMillis());
    }

    @Override
    public SynchronizeResult synchronize(List<PodSandbox> pods, List<Container> containers) {
        long t0 = System.nanoTime();
        known.clear();
        containers.forEach(c -> known.add(c.getId()));
        // Containers that exist already are the cgroup path's: it reconciles every one of them anyway.
        metrics.nriRequest(NriCall.SYNCHRONIZE, NriResult.OK, since(t0));
        LOG.info("NRI synchronize: {} pods, {} containers", pods.size(), containers.size());
        return SynchronizeResult.none();
    }

    @Override
    public CreateResult createContainer(PodSandbox pod, Container container) {
        long t0 = System.nanoTime();
        known.add(container.getId());
        BirthDecision d = decisions.apply(pod.getUid(), container.getName());
        if (d instanceof BirthDecision.Pinned p) {
            LinuxCPU.Builder cpu = cpu(p.pin());
            if (p.exclusive() && quota == ExclusiveCpuQuota.DISABLE) {
                cpu.setQuota(OptionalInt64.newBuilder().setValue(NO_QUOTA));
            }
            ContainerAdjustment adjust = ContainerAdjustment.newBuilder()
                    .setLinux(LinuxContainerAdjustment.newBuilder()
                            .setResources(LinuxResources.newBuilder().setCpu(cpu)))
                    .build();
            metrics.nriRequest(NriCall.CREATE_CONTAINER, NriResult.PINNED, since(t0));
            LOG.debug("{}/{} {} born on {}", pod.getNamespace(), pod.getName(), container.getName(), p.pin());
            return new CreateResult(Optional.of(adjust), List.of());
        }
        BirthDecision.Unpinned u = (BirthDecision.Unpinned) d;
        metrics.nriRequest(NriCall.CREATE_CONTAINER, NriResult.UNPINNED, since(t0));
        LOG.info(
                "{}/{} {} created without a pin: {}; its cgroup is pinned once it appears",
                pod.getNamespace(),
                pod.getName(),
                container.getName(),
                u.reason().text());
        return CreateResult.none();
    }

    @Override
    public List<ContainerUpdate> updateContainer(PodSandbox pod, Container container, LinuxResources resources) {
        long t0 = System.nanoTime();
        BirthDecision d = decisions.apply(pod.getUid(), container.getName());
        List<ContainerUpdate> updates = List.of();
        if (d instanceof BirthDecision.Pinned pinned) {
            idOf(container)
                    .ifPresent(id -> updating.put(id, new Updating(pinned.pin().cpus(), System.nanoTime())));
        }
        if (d instanceof BirthDecision.Pinned p
                && !(resources.getCpu().getCpus().equals(p.pin().cpus().toString())
                        && resources.getCpu().getMems().equals(p.pin().mems().toString()))) {
            // The kubelet knows nothing of the agent's cpusets: keep the pin, take the rest of its update.
            LinuxResources.Builder kept = resources.toBuilder();
            kept.getCpuBuilder()
                    .setCpus(p.pin().cpus().toString())
                    .setMems(p.pin().mems().toString());
            updates = List.of(update(container.getId(), kept.build()));
        }
        metrics.nriRequest(NriCall.UPDATE_CONTAINER, NriResult.OK, since(t0));
        return updates;
    }

    @Override
    public List<ContainerUpdate> stopContainer(PodSandbox pod, Container container) {
        metrics.nriRequest(NriCall.STOP_CONTAINER, NriResult.OK, Duration.ZERO);
        return List.of();
    }

    @Override
    public void event(NriEvent event, PodSandbox pod, Optional<Container> container) {
        if (event == NriEvent.REMOVE_CONTAINER) {
            container.ifPresent(c -> known.remove(c.getId()));
            container.flatMap(this::idOf).ifPresent(updating::remove);
        }
        if (event == NriEvent.POST_UPDATE_CONTAINER) {
            // The runtime wrote the container's cgroup with what UpdateContainer answered: the agent's decision at
            // that moment. A decision taken meanwhile (an in-place resize the kubelet actuates as the agent follows
            // it) would be undone until the next reconcile pass: the container is read again and planned again now.
            container.flatMap(this::idOf).ifPresent(id -> {
                updating.remove(id);
                applied.accept(List.of(id));
            });
        }
        metrics.nriRequest(NriCall.EVENT, NriResult.OK, Duration.ZERO);
    }

    @Override
    public void disconnected(String reason) {
        metrics.nriConnected(false);
        known.clear();
        updating.clear();
        synchronized (queued) {
            queued.clear();
        }
        LOG.warn("the NRI connection ended ({}); pinning after creation until it is back", reason);
    }

    /**
     * The cpusets the agent wrote (on the loop thread, after a task): those of containers the runtime knows are sent
     * to it as unsolicited updates, one batch at a time and never waited for; until the runtime answers, their CPUs
     * count as possibly held by their containers ({@link #pending}).
     */
    @Override
    public void written(Map<ContainerId, Pin> pins) {
        NriPlugin p = plugin;
        if (p == null || !p.connected()) {
            return;
        }
        synchronized (queued) {
            pins.forEach((id, pin) -> {
                if (known.contains(id.id())) {
                    queued.remove(id);
                    queued.put(id, pin);
                }
            });
        }
        sendNext(p);
    }

    @Override
    public Map<ContainerId, CpuSet> pending() {
        synchronized (queued) {
            if (queued.isEmpty() && inFlight.isEmpty() && updating.isEmpty()) {
                return Map.of();
            }
            Map<ContainerId, CpuSet> may = new HashMap<>();
            long now = System.nanoTime();
            updating.forEach((id, u) -> {
                if (now - u.answeredNanos() < UPDATE_IN_FLIGHT.toNanos()) {
                    may.put(id, u.cpus());
                }
            });
            inFlight.forEach((id, pin) -> may.merge(id, pin.cpus(), CpuSet::union));
            queued.forEach((id, pin) -> may.merge(id, pin.cpus(), CpuSet::union));
            return may;
        }
    }

    private void sendNext(NriPlugin p) {
        Map<ContainerId, Pin> batch;
        synchronized (queued) {
            if (!inFlight.isEmpty() || queued.isEmpty()) {
                return;
            }
            batch = new LinkedHashMap<>(queued);
            queued.clear();
            inFlight = batch;
        }
        List<ContainerUpdate> updates = new ArrayList<>();
        batch.forEach((id, pin) -> updates.add(
                update(id.id(), LinuxResources.newBuilder().setCpu(cpu(pin)).build())));
        long t0 = System.nanoTime();
        p.updateContainers(updates).whenComplete((failed, error) -> {
            if (error != null) {
                metrics.nriRequest(NriCall.UPDATE_CONTAINERS, NriResult.FAILED, since(t0));
                LOG.warn("telling the runtime of {} new cpusets failed: {}", updates.size(), error.getMessage());
            } else {
                metrics.nriRequest(
                        NriCall.UPDATE_CONTAINERS, failed.isEmpty() ? NriResult.OK : NriResult.FAILED, since(t0));
                failed.forEach(f -> LOG.warn("the runtime did not take the cpuset of {}", f.getContainerId()));
            }
            synchronized (queued) {
                inFlight = Map.of();
            }
            // Answered or not, the runtime may have written them: the agent reads them again.
            applied.accept(batch.keySet());
            NriPlugin now = plugin;
            if (now != null && now.connected()) {
                sendNext(now);
            } else {
                synchronized (queued) {
                    queued.clear();
                }
            }
        });
    }

    private Optional<ContainerId> idOf(Container c) {
        try {
            return runtimeKind.map(r -> new ContainerId(r, c.getId()));
        } catch (InvalidCgroupNameException e) {
            return Optional.empty();
        }
    }

    private static LinuxCPU.Builder cpu(Pin pin) {
        return LinuxCPU.newBuilder()
                .setCpus(pin.cpus().toString())
                .setMems(pin.mems().toString());
    }

    private static ContainerUpdate update(String containerId, LinuxResources resources) {
        return ContainerUpdate.newBuilder()
                .setContainerId(containerId)
                .setLinux(LinuxContainerUpdate.newBuilder().setResources(resources))
                // A container that went meanwhile must not fail the others.
                .setIgnoreFailure(true)
                .build();
    }

    private static Duration since(long t0) {
        return Duration.ofNanos(System.nanoTime() - t0);
    }
}
