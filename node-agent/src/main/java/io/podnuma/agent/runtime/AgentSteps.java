package io.podnuma.agent.runtime;

import io.podnuma.agent.checkpoint.TopologyFingerprint;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.pods.PodFeed;
import io.podnuma.agent.runtime.admission.Admissions;
import io.podnuma.agent.runtime.admission.Decisions;
import io.podnuma.agent.runtime.admission.Resizes;
import io.podnuma.agent.runtime.birth.BirthBoard;
import io.podnuma.agent.runtime.birth.BirthPins;
import io.podnuma.agent.runtime.core.NodeBook;
import io.podnuma.agent.runtime.drift.DriftCheck;
import io.podnuma.agent.runtime.drift.ReconcilePass;
import io.podnuma.agent.runtime.host.CpusetReads;
import io.podnuma.agent.runtime.host.HostBook;
import io.podnuma.agent.runtime.host.HostScan;
import io.podnuma.agent.runtime.loop.AgentLoop;
import io.podnuma.agent.runtime.loop.Lifecycle;
import io.podnuma.agent.runtime.loop.RetryBackoff;
import io.podnuma.agent.runtime.partition.Partitions;
import io.podnuma.agent.runtime.pin.KubeletWatch;
import io.podnuma.agent.runtime.pin.PinTargets;
import io.podnuma.agent.runtime.pin.PlanApplier;
import io.podnuma.agent.runtime.pin.WantedPins;
import io.podnuma.agent.runtime.pin.WriteGate;
import io.podnuma.agent.runtime.pin.WriteMode;
import io.podnuma.agent.runtime.pods.PodBook;
import io.podnuma.agent.runtime.recovery.Recovery;
import io.podnuma.agent.runtime.status.AgentErrorReason;
import io.podnuma.agent.runtime.status.AgentStatus;
import io.podnuma.agent.runtime.sync.Decided;
import io.podnuma.agent.runtime.sync.FirstList;
import io.podnuma.agent.runtime.sync.FullSync;
import io.podnuma.agent.runtime.sync.PodEvents;

/** The steps of a {@link NodeAgent}, built once from its settings and parts; which step runs when is NodeAgent's. */
record AgentSteps(
        AgentLoop loop,
        Lifecycle lifecycle,
        NodeBook node,
        PodBook pods,
        HostBook host,
        HostScan hostScan,
        WriteGate gate,
        AgentStatus status,
        Recovery recovery,
        PinTargets targets,
        PlanApplier pins,
        PodEvents podEvents,
        FirstList firstList,
        ReconcilePass reconcile,
        BirthBoard birth,
        CpusetReads reads) {

    static AgentSteps wire(NodeAgent.Settings settings, NodeAgent.Parts parts) {
        NodeAllocator allocator = parts.allocator();
        NodeBook node = new NodeBook(allocator.initialState());
        PodBook pods = new PodBook();
        HostBook host = new HostBook();
        WriteGate gate = new WriteGate(WriteMode.ACTIVE);
        AgentStatus status = new AgentStatus(
                new AgentStatus.Identity(settings.nodeName(), settings.policyName(), settings.configHash()),
                parts.topology(),
                allocator,
                parts.reports(),
                parts.metrics(),
                parts.clock());
        AgentLoop loop = new AgentLoop(
                gate::halted,
                (what, e) -> status.error(AgentErrorReason.INTERNAL_ERROR, "handling " + what + " failed: " + e));
        Lifecycle lifecycle = new Lifecycle(
                loop,
                new PodFeed(parts.pods(), parts.mapper()),
                settings.nodeName(),
                settings.reconcilePeriod(),
                settings.syncTimeoutLog());
        HostScan hostScan = new HostScan(parts.pins(), parts.scan(), host);
        Admissions admissions = new Admissions(allocator, parts.metrics(), settings.admission(), parts.devices());
        Decisions decisions = new Decisions(admissions, pods, parts.events());
        CpuSet.Builder mems = CpuSet.builder();
        parts.topology().numaNodes().forEach(n -> mems.add(n.id()));
        WantedPins wanted = new WantedPins(mems.build());
        PinTargets targets = new PinTargets(wanted, pods, host, parts.naming());
        RetryBackoff retry = new RetryBackoff(loop, settings.reconcilePeriod());
        PlanApplier pins = new PlanApplier(
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
        retry.retrying(() -> pins.all(node.state()));
        Partitions partitions = new Partitions(
                parts.partitions(),
                settings.partition(),
                host,
                targets,
                pins::holdsWanted,
                gate,
                status,
                parts.events(),
                parts.metrics());
        pins.around(partitions);
        Recovery recovery = new Recovery(
                parts.checkpoints(),
                allocator,
                TopologyFingerprint.of(parts.topology()),
                settings.configHash(),
                parts.events(),
                status,
                parts.metrics(),
                loop);
        KubeletWatch kubelet = new KubeletWatch(parts.kubelet(), gate, status, parts.events());
        Decided decided = new Decided(node, pods, recovery, pins, status);
        Resizes resizes = new Resizes(allocator, parts.events(), parts.metrics());
        FullSync fullSync = new FullSync(
                allocator,
                pods,
                host,
                hostScan,
                gate,
                admissions,
                decisions,
                resizes,
                parts.topology().onlineCpus());
        CpusetReads reads = new CpusetReads(settings.reconcilePeriod());
        PodEvents podEvents = new PodEvents(
                node, pods, allocator, admissions, decisions, decided, pins, status, resizes, parts.metrics());
        DriftCheck drift =
                new DriftCheck(parts.pins(), host, pods, targets, pins, gate, parts.metrics(), parts.events(), status);
        return new AgentSteps(
                loop,
                lifecycle,
                node,
                pods,
                host,
                hostScan,
                gate,
                status,
                recovery,
                targets,
                pins,
                podEvents,
                new FirstList(fullSync, node, pods, host, recovery, kubelet, pins, status, parts.markReady()),
                new ReconcilePass(
                        node,
                        pods,
                        kubelet,
                        hostScan,
                        drift,
                        pins,
                        recovery,
                        status,
                        reads,
                        parts.metrics(),
                        podEvents::askWaitingAgain),
                new BirthBoard(new BirthPins(wanted)),
                reads);
    }
}
