package io.podnuma.agent.engine.cpu.differential;

import io.podnuma.agent.engine.cpu.CpuAllocationException;
import io.podnuma.agent.engine.cpu.CpuHint;
import io.podnuma.agent.engine.cpu.CpuState;
import io.podnuma.agent.engine.cpu.InvalidCpuPolicyException;
import io.podnuma.agent.engine.cpu.ReservedCpus;
import io.podnuma.agent.engine.cpu.StaticPolicy;
import io.podnuma.agent.engine.cpu.StaticPolicyOptions;
import io.podnuma.agent.engine.cpuset.CpuSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a case through podnuma's {@link StaticPolicy} the way the kubelet's CPU manager calls its
 * policy: hints, then allocation with the topology manager's affinity and the pod's reusable CPUs,
 * then removal.
 *
 * <p>The reusable CPUs are the kubelet's per-pod bookkeeping ({@code cpusToReuse}), which lives in
 * its policy object and not in podnuma's pure policy: an admitted standard init container adds its
 * CPUs, any other admitted container removes its own, and every admission drops the entries of all
 * other pods. It is kept here so that the engine's {@code reusable} parameter sees the same sets.
 */
final class JavaEngineRunner {

    private JavaEngineRunner() {}

    static Outcome run(DiffCase c) {
        StaticPolicy policy;
        try {
            StaticPolicyOptions options = StaticPolicyOptions.parse(c.options());
            ReservedCpus reservation = c.reservedList() != null
                    ? ReservedCpus.explicit(CpuSet.parse(c.reservedList()))
                    : ReservedCpus.count(c.reservedCount());
            policy = StaticPolicy.create(c.topology(), options, reservation, c.topologyManagerPolicy());
        } catch (InvalidCpuPolicyException e) {
            return Outcome.refused(c.id(), e.getMessage());
        }
        CpuState state = policy.initialState();
        String initialDefault = state.defaultSet().toString();
        Map<String, CpuSet> reuse = new HashMap<>();
        List<Outcome.OpOutcome> outs = new ArrayList<>();
        for (DiffCase.Op op : c.ops()) {
            if (!op.isAdd()) {
                state = policy.release(state, op.owner());
                outs.add(new Outcome.OpOutcome(
                        List.of(), "", null, null, state.defaultSet().toString()));
                continue;
            }
            CpuSet reusable = reuse.getOrDefault(op.pod(), CpuSet.empty());
            List<Outcome.Hint> hints = new ArrayList<>();
            if (op.hints()) {
                for (CpuHint h : policy.hints(state, op.cpus(), reusable)) {
                    hints.add(new Outcome.Hint(h.numaNodes().toString(), h.preferred()));
                }
            }
            CpuSet affinity = op.hint() == null ? CpuSet.empty() : CpuSet.parse(op.hint());
            String cpus = "";
            String reason = null;
            String message = null;
            try {
                StaticPolicy.Allocation a = policy.allocate(state, op.owner(), op.cpus(), affinity, reusable);
                state = a.state();
                cpus = a.cpus().toString();
                updateReuse(reuse, op, a.cpus());
            } catch (CpuAllocationException e) {
                reason = e.reason();
                message = e.getMessage();
            } catch (RuntimeException e) {
                // An engine bug must show up as a disagreement with its case, not abort the run.
                reason = "exception " + e.getClass().getSimpleName();
                message = String.valueOf(e.getMessage());
            }
            outs.add(new Outcome.OpOutcome(
                    hints, cpus, reason, message, state.defaultSet().toString()));
        }
        return new Outcome(c.id(), null, policy.reserved().toString(), initialDefault, outs, false);
    }

    private static void updateReuse(Map<String, CpuSet> reuse, DiffCase.Op op, CpuSet granted) {
        reuse.keySet().removeIf(pod -> !pod.equals(op.pod()));
        CpuSet current = reuse.getOrDefault(op.pod(), CpuSet.empty());
        boolean standardInit = op.init() && !op.sidecar();
        reuse.put(op.pod(), standardInit ? current.union(granted) : current.difference(granted));
    }
}
