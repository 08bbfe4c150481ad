/**
 * Whether the node is still governed by podnuma, as its Node object says (the policy label the operator sets), and
 * the removal of its reports when it is not. Spoken to the API server; the runtime asks through
 * {@link io.podnuma.agent.membership.NodeMembership}.
 */
package io.podnuma.agent.membership;
