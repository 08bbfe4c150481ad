/** The parts of a {@link io.podnuma.crds.v1alpha1.NumaNodeState}: discovered topology and per-pod allocations. */
package io.podnuma.crds.v1alpha1.nodestate;
