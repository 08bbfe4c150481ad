package io.podnuma.agent.runtime.status;

import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.kubelet.KubeletCheck;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.podresources.AllocatableResources;
import io.podnuma.agent.podresources.ListedPod;
import io.podnuma.agent.podresources.PodResourcesSnapshot;
import io.podnuma.agent.pods.PodRecord;
import io.podnuma.agent.report.ConditionBook;
import io.podnuma.agent.report.ConditionReason;
import io.podnuma.agent.report.ConditionType;
import io.podnuma.agent.report.NodeReport;
import io.podnuma.agent.report.nrt.SharedPoolRequests;
import io.podnuma.agent.runtime.pods.PodBook;
import io.podnuma.crds.v1alpha1.nodestate.AgentError;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What the agent says about itself: its conditions, its last error, the PodResources snapshot and the reports
 * (NumaNodeState, NodeResourceTopology). Conditions and errors are set on the loop thread; the snapshot is read
 * from the PodResources threads.
 */
public final class AgentStatus {

    /** Who the node is in the reports. */
    public record Identity(String nodeName, Optional<String> policyName, String configHash) {}

    /** The conditions and error at one moment, to tell whether anything changed since. */
    public record Mark(ConditionBook conditions, Optional<AgentError> lastError) {}

    private final Identity identity;
    private final CpuTopology topology;
    private final NodeAllocator allocator;
    private final AllocatableResources allocatable;
    private final Consumer<AgentReport> reports;
    private final AgentMetrics metrics;
    private final Clock clock;

    private ConditionBook conditions = ConditionBook.empty();
    private Optional<AgentError> lastError = Optional.empty();
    private volatile PodResourcesSnapshot snapshot;

    public AgentStatus(
            Identity identity,
            CpuTopology topology,
            NodeAllocator allocator,
            Consumer<AgentReport> reports,
            AgentMetrics metrics,
            Clock clock) {
        this.identity = identity;
        this.topology = topology;
        this.allocator = allocator;
        this.allocatable = AllocatableResources.of(allocator);
        this.reports = reports;
        this.metrics = metrics;
        this.clock = clock;
        this.snapshot = new PodResourcesSnapshot(allocator.initialState(), List.of(), allocatable);
    }

    public void error(AgentErrorReason reason, String message) {
        lastError = Optional.of(new AgentError(now().toString(), reason.wire(), message));
    }

    /** States the reason's condition (its type and status come with the reason). */
    public void condition(ConditionReason reason, String message) {
        conditions = conditions.with(reason, message, now());
        metrics.conditions(conditions);
    }

    public boolean has(ConditionType type) {
        return conditions.byType().containsKey(type.wire());
    }

    public void kubelet(KubeletCheck check) {
        conditions = conditions.withKubelet(check, now());
        metrics.conditions(conditions);
    }

    public Mark mark() {
        return new Mark(conditions, lastError);
    }

    public boolean changedSince(Mark mark) {
        return !conditions.equals(mark.conditions()) || !lastError.equals(mark.lastError());
    }

    /** What PodResources answers from. */
    public PodResourcesSnapshot snapshot() {
        return snapshot;
    }

    /** Only the PodResources snapshot, for decisions that change no assignment. */
    public void refreshSnapshot(NodeState state, PodBook pods) {
        snapshot = snapshotOf(state, pods);
    }

    /** Metrics, snapshot and every report, after a decision. */
    public void publish(NodeState state, PodBook pods) {
        metrics.observe(state);
        snapshot = snapshotOf(state, pods);
        reports.accept(new AgentReport(
                new NodeReport(
                        identity.nodeName(),
                        topology,
                        state,
                        identity.policyName(),
                        identity.configHash(),
                        allocator.reservedCpus(),
                        conditions.conditions(),
                        lastError),
                sharedPoolRequests(state, pods)));
    }

    /**
     * What the long-running containers on the node shared pool request: those of pods the engine holds without
     * exclusive CPUs for them, and every container of pods it does not hold (refused, unreadable: they run there).
     */
    private static SharedPoolRequests sharedPoolRequests(NodeState state, PodBook pods) {
        long cpu = 0;
        long memory = 0;
        for (PodRecord r : pods.all()) {
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

    private PodResourcesSnapshot snapshotOf(NodeState state, PodBook pods) {
        List<ListedPod> listed = new ArrayList<>();
        for (PodRecord r : pods.all()) {
            if (r.admissible()) {
                listed.add(ListedPod.of(r.pod().orElseThrow()));
            }
        }
        listed.sort(Comparator.comparing((ListedPod p) -> p.ref().namespace())
                .thenComparing(p -> p.ref().name()));
        return new PodResourcesSnapshot(state, listed, allocatable);
    }

    public Instant now() {
        return clock.instant();
    }

    /** The topology the reports describe. */
    public CpuTopology topology() {
        return topology;
    }
}
