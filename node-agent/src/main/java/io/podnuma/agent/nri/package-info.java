/**
 * The agent as an external NRI plugin: {@link io.podnuma.agent.nri.NriPlugin} connects to the runtime's NRI socket,
 * registers, subscribes to the events pinning needs ({@link io.podnuma.agent.nri.EventMask#PINNING}), re-assembles a
 * split Synchronize and hands each request to the agent's {@link io.podnuma.agent.nri.NriHandler}; it reconnects with
 * backoff whenever the runtime goes away. The framing is in {@code .mux} and {@code .ttrpc}.
 */
package io.podnuma.agent.nri;
