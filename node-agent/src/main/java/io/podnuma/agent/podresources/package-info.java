/**
 * The node agent's PodResources v1 gRPC service (kubelet-compatible, with the 1.37 pod-level fields): answers
 * from an immutable snapshot of the engine state, optionally merges the kubelet's device assignments, and is
 * served on a unix socket behind a kubelet-like rate limit.
 */
package io.podnuma.agent.podresources;
