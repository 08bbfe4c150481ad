package io.podnuma.e2e.journey;

/** A helm command of the journey, after which a driver may do what the cluster's own controllers would. */
enum HelmStep {
    /** {@code helm install}: the release's objects exist (the operator's Deployment, its ConfigMap). */
    INSTALL,
    /** {@code helm upgrade}: the operator's settings may have changed, so its Deployment rolls. */
    UPGRADE,
    /** {@code helm uninstall}: the operator's Deployment is gone. */
    UNINSTALL
}
