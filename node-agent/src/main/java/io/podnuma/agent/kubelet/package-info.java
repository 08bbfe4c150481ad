/**
 * Kubelet coexistence: reads the kubelet's CPU and memory manager checkpoints and its configuration file and decides
 * whether the kubelet pins containers itself, in which case the agent must not write any cpuset.
 */
package io.podnuma.agent.kubelet;
