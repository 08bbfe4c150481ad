package io.podnuma.operator.reconcile;

import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What {@link AgentObjects#apply} wrote.
 *
 * @param written the objects that differed from what the cluster had, and were applied (or, for a ServiceMonitor the
 *     settings no longer ask for, deleted)
 * @param newTemplate the DaemonSet got a pod template with another config hash (or was created): a rollout starts
 * @param daemonSet the DaemonSet as the API server returned it, when it was written
 */
public record Applied(Set<AgentObject> written, boolean newTemplate, Optional<DaemonSet> daemonSet) {

    public static final Applied NOTHING = new Applied(Set.of(), false, Optional.empty());

    public Applied {
        written = Set.copyOf(written);
        Objects.requireNonNull(daemonSet, "daemonSet");
    }
}
