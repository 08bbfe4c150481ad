package io.podnuma.agent.runtime;

import io.podnuma.agent.podresources.ContainerKey;
import io.podnuma.agent.podresources.DeviceAssignments;
import io.podnuma.agent.podresources.DeviceSource;
import io.podnuma.podresources.v1.ContainerDevices;
import io.podnuma.podresources.v1.NUMANode;
import io.podnuma.podresources.v1.TopologyInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The kubelet's devices as its PodResources socket tells them, for the in-memory agent: one resource whose node
 * devices are {@code <resource short name>-<i>} on the given NUMA nodes, and the devices a test gives a container.
 */
final class FakeKubeletDevices implements DeviceSource {

    private final String resource;
    private final List<ContainerDevices> node = new ArrayList<>();
    private final Map<ContainerKey, DeviceAssignments.Assigned> given = new ConcurrentHashMap<>();

    /** @param numaNodes the NUMA node of each of the node's devices, in id order */
    FakeKubeletDevices(String resource, List<Integer> numaNodes) {
        this.resource = resource;
        for (int i = 0; i < numaNodes.size(); i++) {
            node.add(device("accel-" + i, numaNodes.get(i)));
        }
    }

    /** A device of the resource on {@code numaNodes} (none: without topology), as the kubelet lists it. */
    ContainerDevices device(String id, Integer... numaNodes) {
        TopologyInfo.Builder topology = TopologyInfo.newBuilder();
        for (Integer n : numaNodes) {
            topology.addNodes(NUMANode.newBuilder().setID(n));
        }
        ContainerDevices.Builder b =
                ContainerDevices.newBuilder().setResourceName(resource).addDeviceIds(id);
        return numaNodes.length == 0 ? b.build() : b.setTopology(topology).build();
    }

    /** The kubelet admitted the pod and gave {@code container} these devices. */
    void give(ContainerKey container, ContainerDevices... devices) {
        given.put(container, new DeviceAssignments.Assigned(List.of(devices), List.of()));
    }

    @Override
    public Wait waits() {
        return Wait.NEVER;
    }

    @Override
    public DeviceAssignments all() {
        return new DeviceAssignments(given);
    }

    @Override
    public DeviceAssignments pod(String namespace, String name) {
        return all();
    }

    @Override
    public List<ContainerDevices> allocatable() {
        return List.copyOf(node);
    }

    @Override
    public void close() {}
}
