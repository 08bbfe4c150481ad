/**
 * The optional {@code NodeResourceTopology} export ({@code topology.node.k8s.io/v1alpha2}) for NUMA-aware
 * schedulers: a pure rendering of the machine, configuration and engine state
 * ({@link io.podnuma.agent.report.nrt.NodeResourceTopologyRenderer}) and its server-side apply, skipped when nothing
 * changed and quiet when the CRD is absent ({@link io.podnuma.agent.report.nrt.NodeResourceTopologyWriter}).
 */
package io.podnuma.agent.report.nrt;
