package io.podnuma.operator.plan;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * How far the deletion of a policy has got once its labels are off its nodes: its agents restore each node's containers
 * and delete the node's NumaNodeState, so the policy waits while any NumaNodeState still reports it, up to a timeout
 * counted from the deletion request.
 */
public final class Teardown {

    /** How often to look again while waiting (node state events usually come sooner). */
    static final Duration RECHECK = Duration.ofSeconds(5);

    private Teardown() {}

    /** What to do next. */
    public sealed interface Step {}

    /** Agents still restore these nodes: look again after {@code recheck}. */
    public record Wait(List<String> nodes, Duration recheck) implements Step {
        public Wait {
            nodes = List.copyOf(nodes);
        }
    }

    /** Every agent is done: delete the dependents, then drop the finalizer. */
    public record Release() implements Step {}

    /** The timeout passed while these nodes still reported the policy: let it go anyway, and say so. */
    public record GiveUp(List<String> nodes, PolicyEvent event) implements Step {
        public GiveUp {
            nodes = List.copyOf(nodes);
        }
    }

    /**
     * @param nodesStillReporting the nodes whose NumaNodeState still names this policy
     * @param deletionRequested the policy's deletionTimestamp
     */
    public static Step next(
            String policy, List<String> nodesStillReporting, Instant deletionRequested, Instant now, Duration timeout) {
        Objects.requireNonNull(deletionRequested, "deletionRequested");
        if (nodesStillReporting.isEmpty()) {
            return new Release();
        }
        Instant deadline = deletionRequested.plus(timeout);
        if (!now.isBefore(deadline)) {
            return new GiveUp(
                    nodesStillReporting,
                    new PolicyEvent(
                            EventReason.RESTORE_TIMED_OUT,
                            "policy " + policy + " released after " + timeout.toSeconds() + " s although the agents of "
                                    + Names.nodes(nodesStillReporting.size()) + " had not restored their node: "
                                    + Names.of(nodesStillReporting)
                                    + "; check those nodes' agents and NumaNodeStates"));
        }
        Duration left = Duration.between(now, deadline);
        return new Wait(nodesStillReporting, left.compareTo(RECHECK) < 0 ? left : RECHECK);
    }
}
