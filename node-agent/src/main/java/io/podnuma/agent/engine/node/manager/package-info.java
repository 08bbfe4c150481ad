/**
 * The node's CPU and memory managers as the kubelet has them: an interface each, with a {@code none} and a
 * {@code static} implementation, so no caller asks whether a manager exists.
 */
package io.podnuma.agent.engine.node.manager;
