package io.podnuma.agent.engine.node;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Carries the assignments of running pods over to a new policy without a drain.
 *
 * <p>Running containers keep what they hold: taking CPUs away from a latency-critical process because the
 * policy changed under it would be worse than the conflict. A pod whose assignment no longer fits the new
 * policy (it holds CPUs that are now reserved or offline, or memory the new books cannot carry) is kept as well
 * and named as being in the way; the node is degraded until those pods leave. The shared pool is rebuilt under
 * the new policy from what the kept pods hold, so new pods are placed by the new rules.
 */
public final class PolicyTransition {

    /**
     * @param state the state to continue with
     * @param inTheWay pods that hold something the new policy does not allow, each with why, in UID order
     */
    public record Outcome(NodeState state, List<Conflict> inTheWay) {
        public Outcome {
            Objects.requireNonNull(state, "state");
            inTheWay = List.copyOf(inTheWay);
        }

        public boolean degraded() {
            return !inTheWay.isEmpty();
        }

        /** One line naming every pod in the way, for a condition or an Event; empty when none. */
        public String summary() {
            List<String> parts = new ArrayList<>();
            for (Conflict c : inTheWay) {
                parts.add(c.pod() + " (" + c.why() + ")");
            }
            return String.join("; ", parts);
        }
    }

    /** A pod the new policy would not have given what it holds. */
    public record Conflict(PodRef pod, String why) {
        public Conflict {
            Objects.requireNonNull(pod, "pod");
            Objects.requireNonNull(why, "why");
        }
    }

    private PolicyTransition() {}

    /** Adopts {@code previous} (decided under another policy) for {@code next}. */
    public static Outcome adopt(NodeAllocator next, NodeState previous) {
        CpuSet online = next.topology().onlineCpus();
        CpuSet reserved = next.reservedCpus();
        List<Conflict> conflicts = new ArrayList<>();
        CpuSet held = CpuSet.empty();
        for (PodAssignment pod : previous.pods().values()) {
            CpuSet mine = pod.exclusiveCpus();
            List<String> why = new ArrayList<>();
            if (!mine.isSubsetOf(online)) {
                why.add("holds CPUs " + mine.difference(online) + " that are not online");
            }
            if (mine.intersects(reserved)) {
                why.add("holds CPUs " + mine.intersection(reserved) + " that the new policy reserves");
            }
            if (mine.intersects(held)) {
                // Cannot happen for a state this agent wrote; a hand-edited one must not double-book.
                throw new IllegalArgumentException(
                        "pod " + pod.ref() + " holds CPUs " + mine.intersection(held) + " that another pod holds too");
            }
            held = held.union(mine);
            if (!why.isEmpty()) {
                conflicts.add(new Conflict(pod.ref(), String.join(", ", why)));
            }
        }
        CpuSet shared = next.initialState().sharedPool().difference(held);
        NodeState adopted = new NodeState(shared, new TreeMap<>(previous.pods()));
        if (next.config().memoryPolicy() == NodeConfig.MemoryPolicy.STATIC) {
            conflicts.addAll(memoryConflicts(next, adopted));
        } else {
            for (PodAssignment pod : previous.pods().values()) {
                if (!pod.podMemory().isEmpty()
                        || pod.containers().stream().anyMatch(c -> !c.memory().isEmpty())) {
                    conflicts.add(new Conflict(pod.ref(), "holds pinned memory but the new memory policy is None"));
                }
            }
        }
        conflicts.sort((a, b) -> a.pod().uid().compareTo(b.pod().uid()));
        return new Outcome(adopted, conflicts);
    }

    /** Pods whose memory blocks the new books cannot carry, found by adding pods one at a time. */
    private static List<Conflict> memoryConflicts(NodeAllocator next, NodeState adopted) {
        List<Conflict> out = new ArrayList<>();
        NodeState fits = NodeState.empty(adopted.sharedPool());
        for (PodAssignment pod : adopted.pods().values()) {
            NodeState with = fits.withPod(fits.sharedPool(), pod);
            try {
                next.memoryState(with);
                fits = with;
            } catch (IllegalArgumentException e) {
                out.add(new Conflict(pod.ref(), "its memory does not fit the new reservation: " + e.getMessage()));
            }
        }
        return out;
    }
}
