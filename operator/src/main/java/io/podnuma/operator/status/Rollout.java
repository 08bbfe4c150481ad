package io.podnuma.operator.status;

import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetStatus;
import java.util.Objects;

/**
 * Where the agent DaemonSet's rollout stands, read from its generation and status.
 *
 * @param generation the DaemonSet's metadata.generation: the spec the operator last wrote
 * @param observedGeneration the generation the DaemonSet controller has acted on
 * @param desired desiredNumberScheduled: the nodes that should run the agent
 * @param updated updatedNumberScheduled: the nodes running the current pod template
 * @param available numberAvailable: the nodes whose agent pod is available
 */
public record Rollout(long generation, long observedGeneration, int desired, int updated, int available) {

    public static Rollout of(DaemonSet daemonSet) {
        Long generation =
                daemonSet.getMetadata() == null ? null : daemonSet.getMetadata().getGeneration();
        DaemonSetStatus s = daemonSet.getStatus() == null ? new DaemonSetStatus() : daemonSet.getStatus();
        return new Rollout(
                Objects.requireNonNullElse(generation, 0L),
                Objects.requireNonNullElse(s.getObservedGeneration(), 0L),
                Objects.requireNonNullElse(s.getDesiredNumberScheduled(), 0),
                Objects.requireNonNullElse(s.getUpdatedNumberScheduled(), 0),
                Objects.requireNonNullElse(s.getNumberAvailable(), 0));
    }

    /** The controller has seen the current spec. */
    public boolean observed() {
        return observedGeneration >= generation;
    }

    /**
     * The rollout is done: the controller has seen the current spec, and every node that should run the agent runs the
     * current template and is available. {@code numberReady} alone is not enough: old pods are ready too, mid-rollout.
     */
    public boolean complete() {
        return observed() && updated == desired && available == desired;
    }

    /** Where it stands, in words. */
    public String describe() {
        if (!observed()) {
            return "the DaemonSet controller has not yet acted on generation " + generation + " (it last saw "
                    + observedGeneration + ")";
        }
        if (complete()) {
            return desired + " of " + desired + " nodes updated and available";
        }
        return updated + " of " + desired + " nodes updated, " + available + " available";
    }
}
