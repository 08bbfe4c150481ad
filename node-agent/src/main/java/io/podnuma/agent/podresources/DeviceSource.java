package io.podnuma.agent.podresources;

import io.podnuma.podresources.v1.ContainerDevices;
import java.util.List;

/**
 * Where device assignments come from. podnuma does not own devices: the kubelet does, and reports them on its
 * own PodResources socket. Implementations never throw: when the source cannot answer, there are no devices.
 */
public interface DeviceSource extends AutoCloseable {

    /** Whether asking may wait on another process. */
    enum Wait {
        /** Answers from memory at once. */
        NEVER,
        /** Calls another process (the kubelet), up to a deadline. */
        REMOTE_CALL
    }

    /** No devices at all (no kubelet socket configured). */
    DeviceSource NONE = new DeviceSource() {
        @Override
        public Wait waits() {
            return Wait.NEVER;
        }

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
        public boolean knowsDevices() {
            return false;
        }

        @Override
        public void close() {}
    };

    /** Whether it can say which devices a pod holds; without a kubelet socket it cannot. */
    default boolean knowsDevices() {
        return true;
    }

    /** Whether {@link #all}, {@link #pod} and {@link #allocatable} may block the calling thread. */
    Wait waits();

    /** Devices of every pod on the node. */
    DeviceAssignments all();

    /** Devices of one pod. */
    DeviceAssignments pod(String namespace, String name);

    /** Devices the node could hand out. */
    List<ContainerDevices> allocatable();

    @Override
    void close();
}
