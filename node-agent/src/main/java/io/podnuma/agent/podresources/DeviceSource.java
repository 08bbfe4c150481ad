package io.podnuma.agent.podresources;

import io.podnuma.podresources.v1.ContainerDevices;
import java.util.List;

/**
 * Where device assignments come from. podnuma does not own devices: the kubelet does, and reports them on its
 * own PodResources socket. Implementations never throw: when the source cannot answer, there are no devices.
 */
public interface DeviceSource extends AutoCloseable {

    /** No devices at all (no kubelet socket configured). */
    DeviceSource NONE = new DeviceSource() {
        @Override
        public DeviceAssignments all() {
            return DeviceAssignments.NONE;
        }

        @Override
        public DeviceAssignments pod(String namespace, String name) {
            return DeviceAssignments.NONE;
        }

        @Override
        public List<ContainerDevices> allocatable() {
            return List.of();
        }

        @Override
        public void close() {}
    };

    /** Devices of every pod on the node. */
    DeviceAssignments all();

    /** Devices of one pod. */
    DeviceAssignments pod(String namespace, String name);

    /** Devices the node could hand out. */
    List<ContainerDevices> allocatable();

    @Override
    void close();
}
