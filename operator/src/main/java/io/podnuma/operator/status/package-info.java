/**
 * A policy's status as a pure function of what the operator observed: the policy, the node assignment, its agent
 * DaemonSet's rollout and the governed nodes' {@code NumaNodeState}s, and the time ({@link PolicyStatusAggregator}).
 * Conditions keep their {@code lastTransitionTime} while their status stays, so an unchanged observation gives an
 * equal status and the shell can skip the write. No Kubernetes client, no files, no clock.
 */
package io.podnuma.operator.status;
