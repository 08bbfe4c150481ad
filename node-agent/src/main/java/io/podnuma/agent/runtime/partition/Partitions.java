package io.podnuma.agent.runtime.partition;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupWriteException;
import io.podnuma.agent.cgroup.partition.PartitionFiles;
import io.podnuma.agent.cgroup.partition.PartitionPlan;
import io.podnuma.agent.cgroup.partition.PartitionState;
import io.podnuma.agent.cgroup.partition.PartitionStep;
import io.podnuma.agent.cgroup.partition.PartitionSupport;
import io.podnuma.agent.cgroup.partition.PartitionType;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.events.EventReason;
import io.podnuma.agent.events.EventType;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.report.ConditionReason;
import io.podnuma.agent.runtime.core.RuntimeEvents;
import io.podnuma.agent.runtime.host.HostBook;
import io.podnuma.agent.runtime.host.HostContainer;
import io.podnuma.agent.runtime.partition.WantedPartitions.HostSlice;
import io.podnuma.agent.runtime.partition.WantedPartitions.Slice;
import io.podnuma.agent.runtime.pin.AroundWrites;
import io.podnuma.agent.runtime.pin.PinPlan;
import io.podnuma.agent.runtime.pin.PinTargets;
import io.podnuma.agent.runtime.pin.WriteGate;
import io.podnuma.agent.runtime.status.AgentStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes each exclusive slice a cgroup v2 cpuset partition ({@code cpuManager.partition}) after each pass of cpuset
 * writes (one that grew, before them), and undoes what a policy without them finds. Where the node cannot (cgroup v1, a kernel without {@code
 * cpuset.cpus.exclusive}) or the kernel refuses one slice, the slices stay exclusive by their cpusets: the {@code
 * Partitioned} condition and a Warning say so; a refused slice is not tried again until its CPUs change. The agent owns
 * every partition below the kubelet's cgroup: one it finds there that it does not want goes.
 */
public final class Partitions implements AroundWrites {

    private static final Logger LOG = LoggerFactory.getLogger(Partitions.class);

    private final PartitionFiles files;
    private final Optional<PartitionType> type;
    private final HostBook host;
    private final PinTargets targets;
    private final BiPredicate<NodeState, HostContainer> holdsWanted;
    private final AgentStatus status;
    private final RuntimeEvents events;
    private final AgentMetrics metrics;

    private final WriteGate gate;
    private final Map<CgroupPath, PartitionType> foundTypes = new HashMap<>();
    private boolean started;
    /** The partitions made, and their CPUs, as last written or read. */
    private Map<CgroupPath, CpuSet> held = new HashMap<>();
    /** The cgroups above them and the CPUs they list. */
    private Map<CgroupPath, CpuSet> ancestors = new HashMap<>();
    /** Slices the kernel refused, with the CPUs it refused: not tried again while they stay. */
    private final Map<CgroupPath, CpuSet> refused = new HashMap<>();

    private String lastRefusal = "";

    /**
     * @param type the partition each slice becomes; empty: none (partitions found are undone)
     * @param holdsWanted whether a host container holds the cpuset the agent wants for it now
     */
    public Partitions(
            PartitionFiles files,
            Optional<PartitionType> type,
            HostBook host,
            PinTargets targets,
            BiPredicate<NodeState, HostContainer> holdsWanted,
            WriteGate gate,
            AgentStatus status,
            RuntimeEvents events,
            AgentMetrics metrics) {
        if (type.isPresent() && type.get() == PartitionType.MEMBER) {
            throw new IllegalArgumentException("a slice becomes a root or isolated partition, not a member");
        }
        this.files = files;
        this.type = type;
        this.host = host;
        this.targets = targets;
        this.holdsWanted = holdsWanted;
        this.gate = gate;
        this.status = status;
        this.events = events;
        this.metrics = metrics;
    }

    /**
     * Before a pass of cpuset writes: a partition whose slice grew (a resize) grows first, in place, as a container
     * below it cannot hold a CPU its partition does not have (the kernel would leave its effective set as it was).
     */
    @Override
    public void before(NodeState state) {
        if (!started
                || type.isEmpty()
                || !(files.support() instanceof PartitionSupport.Supported)
                || gate.givesUpOnly()
                || gate.planMode() == PinPlan.Mode.RESTORE) {
            return;
        }
        Map<CgroupPath, CpuSet> grown = new HashMap<>(held);
        wanted(state, (s, hc) -> true).forEach((dir, slice) -> {
            CpuSet now = held.get(dir);
            if (now != null && !slice.cpus().equals(now) && now.isSubsetOf(slice.cpus())) {
                grown.put(dir, slice.cpus());
            }
        });
        if (!grown.equals(held) && !apply(grown, Optional.empty())) {
            rescan(); // a growth refused: read back, and refused, after the writes
        }
    }

    /** After a pass of cpuset writes: the partitions follow the slices. */
    @Override
    public void after(NodeState state) {
        if (!started) {
            started = true;
            start();
        }
        if (type.isEmpty() || !(files.support() instanceof PartitionSupport.Supported) || gate.givesUpOnly()) {
            return; // before the full sync no CPU is taken, so no partition is made either
        }
        // A node leaving podnuma gives every CPU back: no slice stays a partition.
        Map<CgroupPath, Slice> wanted =
                gate.planMode() == PinPlan.Mode.RESTORE ? new LinkedHashMap<>() : wanted(state, holdsWanted);
        refused.keySet()
                .removeIf(dir ->
                        !wanted.containsKey(dir) || !wanted.get(dir).cpus().equals(refused.get(dir)));
        wanted.keySet().removeAll(refused.keySet());
        if (!apply(wanted)) {
            // A write the kernel refused: what is there now is read again, and the plan made without the refused.
            rescan();
            wanted.keySet().removeAll(refused.keySet());
            apply(wanted);
        }
        verify(wanted);
        state();
    }

    /** The start: a node that cannot says so once; partitions the policy does not want (or not so) go. */
    private void start() {
        if (type.isPresent() && files.support() instanceof PartitionSupport.Unsupported u) {
            String message = "cpuManager.partition " + type.get().wire() + ": " + u.reason()
                    + "; exclusive slices stay exclusive by their cpusets alone";
            LOG.warn("{}", message);
            status.condition(ConditionReason.PARTITIONS_UNSUPPORTED, message);
            events.onNode(EventType.WARNING, EventReason.PARTITIONS_UNSUPPORTED, message);
            return;
        }
        if (!(files.support() instanceof PartitionSupport.Supported)) {
            return; // nothing can have been made here
        }
        rescan();
        Map<CgroupPath, CpuSet> keep = new HashMap<>();
        held.forEach((dir, cpus) -> {
            if (type.isPresent() && typeOf(dir).equals(type)) {
                keep.put(dir, cpus);
            }
        });
        if (!keep.equals(held)) {
            LOG.info(
                    "undoing the cpuset partitions {} (cpuManager.partition {})",
                    held.keySet(),
                    type.map(PartitionType::wire).orElse("none"));
            if (!apply(keep, Optional.empty())) {
                rescan();
            }
        }
    }

    private Optional<PartitionType> typeOf(CgroupPath dir) {
        return Optional.ofNullable(foundTypes.get(dir));
    }

    /** The slices whose containers {@code hold} (what the agent wants of them). */
    private Map<CgroupPath, Slice> wanted(NodeState state, BiPredicate<NodeState, HostContainer> hold) {
        List<HostSlice> slices = new ArrayList<>();
        Map<CgroupPath, Optional<String>> names = new HashMap<>();
        for (HostContainer hc : host.view()) {
            slices.add(new HostSlice(hc.path(), hc.podUid(), hold.test(state, hc), targets.exclusiveCpus(state, hc)));
            names.put(hc.path(), targets.nameOf(hc));
        }
        return new LinkedHashMap<>(
                WantedPartitions.of(state, slices, dir -> names.getOrDefault(dir, Optional.empty())));
    }

    /** Writes the plan from what is held to {@code wanted}; false when the kernel refused a write. */
    private boolean apply(Map<CgroupPath, Slice> wanted) {
        Map<CgroupPath, CpuSet> cpus = new LinkedHashMap<>();
        wanted.forEach((dir, slice) -> cpus.put(dir, slice.cpus()));
        return apply(cpus, Optional.of(wanted));
    }

    private boolean apply(Map<CgroupPath, CpuSet> wanted, Optional<Map<CgroupPath, Slice>> slices) {
        if (wanted.equals(held) && ancestors.equals(PartitionPlan.ancestorsOf(wanted))) {
            return true;
        }
        PartitionType as = type.orElse(PartitionType.ISOLATED); // without a type only members are written
        for (PartitionStep step : PartitionPlan.between(held, ancestors, wanted, as)) {
            try {
                files.write(step);
            } catch (CgroupWriteException e) {
                metrics.cgroupWriteFailed();
                LOG.warn("{}", e.getMessage());
                // Refused: the partitions this plan would have made or changed at or below the cgroup written (an
                // ancestor's list refused holds back every new partition below it); those it only kept are not.
                slices.ifPresent(s -> s.forEach((dir, slice) -> {
                    if (!slice.cpus().equals(held.get(dir)) && within(dir, step.dir())) {
                        refuse(dir, slice, e.getMessage());
                    }
                }));
                return false;
            }
        }
        held = new HashMap<>(wanted);
        ancestors = new HashMap<>(PartitionPlan.ancestorsOf(wanted));
        return true;
    }

    private static boolean within(CgroupPath dir, CgroupPath above) {
        List<String> d = dir.segments();
        List<String> a = above.segments();
        return d.size() >= a.size() && d.subList(0, a.size()).equals(a);
    }

    /** Reads each partition back: one the kernel does not honour is refused and undone. */
    private void verify(Map<CgroupPath, Slice> wanted) {
        boolean undo = false;
        for (Map.Entry<CgroupPath, Slice> e : wanted.entrySet()) {
            if (!held.containsKey(e.getKey())) {
                continue;
            }
            Optional<PartitionState> now;
            try {
                now = files.read(e.getKey());
            } catch (CgroupWriteException ex) {
                LOG.warn("{}", ex.getMessage());
                continue;
            }
            if (now.isEmpty()) {
                continue; // gone with its pod: the next plan lets go of it
            }
            if (!now.get().inForce()) {
                refuse(
                        e.getKey(),
                        e.getValue(),
                        "the kernel reports it \"" + now.get().type().wire() + " invalid ("
                                + now.get().invalid().orElse("") + ")\"");
                undo = true;
            }
        }
        if (undo) {
            wanted.keySet().removeAll(refused.keySet());
            if (!apply(wanted)) {
                rescan();
            }
        }
    }

    private void refuse(CgroupPath dir, Slice slice, String why) {
        refused.put(dir, slice.cpus());
        metrics.partitionRefused();
        lastRefusal = slice.owner() + ": cgroup " + dir + " could not be made an "
                + type.orElseThrow().wire()
                + " partition of CPUs " + slice.cpus() + " (" + why + "); its CPUs stay exclusive by their cpusets"
                + " alone";
        LOG.warn("{}", lastRefusal);
        events.onPod(slice.pod(), EventType.WARNING, EventReason.PARTITION_REFUSED, lastRefusal);
    }

    private void rescan() {
        PartitionFiles.Found found;
        try {
            found = files.scan();
        } catch (CgroupWriteException e) {
            LOG.warn("{}", e.getMessage());
            return;
        }
        held = new HashMap<>();
        foundTypes.clear();
        found.partitions().forEach((dir, p) -> {
            held.put(dir, p.exclusive());
            foundTypes.put(dir, p.type());
        });
        ancestors = new HashMap<>(found.ancestors());
    }

    private void state() {
        metrics.partitionsInForce(held.size());
        if (refused.isEmpty()) {
            status.condition(
                    ConditionReason.PARTITIONS_IN_FORCE,
                    "each exclusive slice is an " + type.orElseThrow().wire() + " cpuset partition: no other task of"
                            + " the node runs on its CPUs");
        } else {
            status.condition(
                    ConditionReason.PARTITION_REFUSED,
                    refused.size() + " exclusive slice(s) are not partitions; the last: " + lastRefusal);
        }
    }
}
