/**
 * The reconcile ports on a real cluster: the informer caches as the {@code ClusterView}, node labels by merge patch,
 * the agent objects by server-side apply, Events through core/v1. Everything written here carries the one field
 * manager {@link FieldManager#NAME}.
 */
package io.podnuma.operator.kube;
