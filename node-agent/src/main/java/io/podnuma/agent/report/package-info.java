/**
 * The node's {@code NumaNodeState}: a pure rendering of the engine state, topology, configuration and conditions
 * ({@link io.podnuma.agent.report.NodeStateRenderer}), and its publication by server-side apply, coalesced and
 * skipped when nothing changed ({@link io.podnuma.agent.report.NodeStatePublisher}).
 */
package io.podnuma.agent.report;
