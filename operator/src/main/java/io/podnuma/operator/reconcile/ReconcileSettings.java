package io.podnuma.operator.reconcile;

import io.podnuma.operator.render.AgentRollout;
import io.podnuma.operator.status.StatusSettings;
import java.time.Duration;
import java.util.Objects;

/**
 * What the steps need besides the cluster.
 *
 * @param rollout how the agents run (namespace, image, ports, ...)
 * @param restoreTimeout how long a deleted policy waits for its agents to restore their nodes
 * @param serviceMonitors the cluster has {@code monitoring.coreos.com}: apply a ServiceMonitor per policy
 */
public record ReconcileSettings(
        AgentRollout rollout, Duration restoreTimeout, boolean serviceMonitors, StatusSettings status) {

    public ReconcileSettings {
        Objects.requireNonNull(rollout, "rollout");
        Objects.requireNonNull(restoreTimeout, "restoreTimeout");
        Objects.requireNonNull(status, "status");
        if (restoreTimeout.isNegative()) {
            throw new IllegalArgumentException("restoreTimeout must not be negative, got " + restoreTimeout);
        }
    }
}
