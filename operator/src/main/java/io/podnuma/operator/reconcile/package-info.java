/**
 * The operator's shell around the pure decisions: {@link PolicySteps} reads the cluster through {@link ClusterView},
 * decides with {@code assign}, {@code render}, {@code status} and {@code plan}, and acts through narrow ports
 * ({@link NodeLabels}, {@link AgentObjects}, {@link EventSink}). The package knows neither the
 * client nor the SDK: {@code io.podnuma.operator.kube} implements the ports on a cluster and
 * {@code io.podnuma.operator.controller} plugs the steps into the java-operator-sdk.
 */
package io.podnuma.operator.reconcile;
