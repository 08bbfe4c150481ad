package io.podnuma.operator.settings;

import io.podnuma.crds.agent.v1alpha1.LogLevel;
import io.podnuma.logging.LogFormat;
import io.podnuma.operator.reconcile.ReconcileSettings;
import io.podnuma.operator.render.AgentRollout;
import io.podnuma.operator.status.StatusSettings;
import io.podnuma.securemetrics.MetricsSecurity;
import io.podnuma.securemetrics.SecureMetricsSettings;
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
 * @param leaseTimings the leader election's lease duration, renew deadline and retry period
 * @param logLevel the threshold of every logger of the operator's process
 * @param logFormat text or JSON lines on stderr
 * @param metricsSecurity the operator's own {@code /metrics}: plain HTTP, or HTTPS with a token check
 * @param metricsTls the certificate and decision cache of {@link MetricsSecurity#HTTPS}; unused with HTTP
 */
public record OperatorSettings(
        AgentRollout rollout,
        Duration restoreTimeout,
        Duration errorWindow,
        Optional<String> leaseName,
        String leaseNamespace,
        LeaseTimings leaseTimings,
        LogLevel logLevel,
        LogFormat logFormat,
        int healthPort,
        int metricsPort,
        MetricsSecurity metricsSecurity,
        SecureMetricsSettings metricsTls) {

    public OperatorSettings {
        Objects.requireNonNull(rollout, "rollout");
        Objects.requireNonNull(restoreTimeout, "restoreTimeout");
        Objects.requireNonNull(errorWindow, "errorWindow");
        Objects.requireNonNull(leaseName, "leaseName");
        Objects.requireNonNull(leaseNamespace, "leaseNamespace");
        Objects.requireNonNull(leaseTimings, "leaseTimings");
        Objects.requireNonNull(logLevel, "logLevel");
        Objects.requireNonNull(logFormat, "logFormat");
        Objects.requireNonNull(metricsSecurity, "metricsSecurity");
        Objects.requireNonNull(metricsTls, "metricsTls");
    }

    /** What the reconcile steps need; {@code serviceMonitors}: the cluster has {@code monitoring.coreos.com}. */
    public ReconcileSettings reconcile(boolean serviceMonitors) {
        return new ReconcileSettings(rollout, restoreTimeout, serviceMonitors, new StatusSettings(errorWindow));
    }
}
