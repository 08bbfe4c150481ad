/**
 * Kubelet coexistence: asks the kubelet's PodResources API which CPU and memory manager policies it runs, reads its
 * configuration file, and decides whether the kubelet pins containers itself, in which case the agent must not write
 * any cpuset.
 */
package io.podnuma.agent.kubelet;
