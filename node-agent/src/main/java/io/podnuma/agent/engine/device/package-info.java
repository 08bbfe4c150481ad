/**
 * Devices as a topology hint provider: the devices the kubelet gave a pod ({@link
 * io.podnuma.agent.engine.device.PodDevices}) become hints ({@link io.podnuma.agent.engine.device.DeviceHints}) that
 * the topology manager merges with the CPU and memory hints, so exclusive CPUs and memory land on the devices' NUMA
 * node.
 */
package io.podnuma.agent.engine.device;
