/**
 * Whether a node state read back is one the engine could have produced: {@link
 * io.podnuma.agent.engine.node.validation.NodeStateValidator} runs the rules, each class holds one concern (pod
 * shape, memory, pod-level budget, CPUs, the topology policy's promise, the node's books).
 */
package io.podnuma.agent.engine.node.validation;
