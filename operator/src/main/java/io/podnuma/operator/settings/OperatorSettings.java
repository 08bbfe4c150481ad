package io.podnuma.operator.settings;

import io.podnuma.operator.reconcile.ReconcileSettings;
import io.podnuma.operator.render.AgentRollout;
import io.podnuma.operator.status.StatusSettings;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything the operator process runs with.
 *
 * @param rollout how the agents run
 * @param restoreTimeout how long a deleted policy waits for its agents
 * @param errorWindow how long an agent's last error marks its node failing
 * @param leaseName empty: no leader election (a single replica)
 */
public record OperatorSettings(
        AgentRollout rollout,
        Duration restoreTimeout,
        Duration errorWindow,
        Optional<String> leaseName,
        String leaseNamespace,
        int healthPort,
        int metricsPort) {

    public OperatorSettings {
        Objects.requireNonNull(rollout, "rollout");
        Objects.requireNonNull(restoreTimeout, "restoreTimeout");
        Objects.requireNonNull(errorWindow, "errorWindow");
        Objects.requireNonNull(leaseName, "leaseName");
        Objects.requireNonNull(leaseNamespace, "leaseNamespace");
    }

    /** What the reconcile steps need; {@code serviceMonitors}: the cluster has {@code monitoring.coreos.com}. */
    public ReconcileSettings reconcile(boolean serviceMonitors) {
        return new ReconcileSettings(rollout, restoreTimeout, serviceMonitors, new StatusSettings(errorWindow));
    }
}
