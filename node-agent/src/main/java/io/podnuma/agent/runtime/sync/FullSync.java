package io.podnuma.agent.runtime.sync;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.pods.PodRecord;
import io.podnuma.agent.runtime.admission.AdmissionDecision;
import io.podnuma.agent.runtime.admission.Admissions;
import io.podnuma.agent.runtime.admission.Decisions;
import io.podnuma.agent.runtime.admission.Resizes;
import io.podnuma.agent.runtime.host.HostBook;
import io.podnuma.agent.runtime.host.HostScan;
import io.podnuma.agent.runtime.pin.WriteGate;
import io.podnuma.agent.runtime.pods.PodBook;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The decisions of the first full list: pods the engine holds but the list does not (or lists as finished) are
 * released, those it holds resized to their current spec, the others admitted in creation order; each pod the checkpoint does not hold (all of them without one) is
 * first tried within the CPUs its containers hold, so running pods are not moved.
 */
public final class FullSync {

    private static final Logger LOG = LoggerFactory.getLogger(FullSync.class);

    /** The node state after the sync, and what it did. */
    public record Result(NodeState state, int admitted, int released) {}

    private final NodeAllocator allocator;
    private final PodBook pods;
    private final HostBook host;
    private final HostScan scan;
    private final WriteGate gate;
    private final Admissions admissions;
    private final Decisions decisions;
    private final Resizes resizes;
    private final CpuSet onlineCpus;

    public FullSync(
            NodeAllocator allocator,
            PodBook pods,
            HostBook host,
            HostScan scan,
            WriteGate gate,
            Admissions admissions,
            Decisions decisions,
            Resizes resizes,
            CpuSet onlineCpus) {
        this.allocator = allocator;
        this.pods = pods;
        this.host = host;
        this.scan = scan;
        this.gate = gate;
        this.admissions = admissions;
        this.decisions = decisions;
        this.resizes = resizes;
        this.onlineCpus = onlineCpus;
    }

    public Result run(NodeState start, List<PodRecord> listed) {
        NodeState state = start;
        pods.listed(listed);
        int released = 0;
        for (String uid : List.copyOf(state.pods().keySet())) {
            Optional<PodRecord> r = pods.get(uid);
            if (r.isEmpty() || r.get().terminal()) {
                state = allocator.remove(state, uid);
                released++;
            }
        }
        List<PodRecord> order = pods.all().stream()
                .filter(PodRecord::admissible)
                .sorted(Comparator.comparing(PodRecord::created)
                        .thenComparing(r -> r.ref().uid()))
                .toList();
        // A pod resized while no agent ran (or while this one restarted) holds its old size in the checkpoint: it
        // is resized in place before anything new is admitted, as it would have been had the agent seen it.
        for (PodRecord r : order) {
            if (state.pods().containsKey(r.ref().uid()) && r.resizable()) {
                state = resizes.resize(state, r);
            }
        }
        // Before the admissions: without a checkpoint the cgroups found here are the record of who held what, and
        // with one they are for the pods it does not know (a checkpoint older than the last agent's decisions).
        scan.rescan();
        boolean first = gate.beforeFullSync();
        boolean rebuilding = gate.rebuilding();
        int kept = 0;
        if (first) {
            Map<String, CpuSet> held = host.heldByPod(onlineCpus);
            for (PodRecord r : order) {
                CpuSet cpus = held.get(r.ref().uid());
                // With a checkpoint, a container on its shared pool holds nothing of its own: it was pinned from it.
                boolean own = cpus != null && (rebuilding || !cpus.equals(start.sharedPool()));
                if (own && !state.pods().containsKey(r.ref().uid())) {
                    AdmissionDecision d = admissions.admitWithin(state, r, cpus);
                    state = decisions.carryOut(state, d);
                    kept += d instanceof AdmissionDecision.Admit ? 1 : 0;
                }
            }
        }
        int admitted = 0;
        for (PodRecord r : order) {
            if (!state.pods().containsKey(r.ref().uid())) {
                AdmissionDecision d = admissions.admit(state, r);
                state = decisions.carryOut(state, d);
                admitted += d instanceof AdmissionDecision.Admit ? 1 : 0;
            }
        }
        if (rebuilding) {
            LOG.info(
                    "rebuilt without a checkpoint: {} pods kept the CPUs their containers hold, {} admitted afresh",
                    kept,
                    admitted);
        } else if (kept > 0) {
            LOG.info("{} pods the checkpoint did not hold were placed within the CPUs their containers hold", kept);
        }
        admitted += kept;
        if (first) {
            gate.synced();
        }
        for (PodRecord r : pods.all()) {
            if (r.pod().isEmpty() && !r.terminal()) {
                decisions.refuseUnreadable(r);
            }
        }
        return new Result(state, admitted, released);
    }
}
