/**
 * What the agent tells people and does to pods: Kubernetes Events on pods and on the Node
 * ({@link io.podnuma.agent.events.EventSink}, written by {@link io.podnuma.agent.events.KubeEventRecorder}: aggregated,
 * rate-limited per object, never blocking or throwing to the caller) and evictions through the Eviction API
 * ({@link io.podnuma.agent.events.PodEvictor}: asynchronous, one at a time per pod UID, PodDisruptionBudgets honoured).
 */
package io.podnuma.agent.events;
