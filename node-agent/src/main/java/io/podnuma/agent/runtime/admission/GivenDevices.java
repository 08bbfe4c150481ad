package io.podnuma.agent.runtime.admission;

import io.podnuma.agent.engine.device.Device;
import io.podnuma.agent.engine.device.PodDevices;
import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.podresources.ContainerKey;
import io.podnuma.agent.podresources.DeviceAssignments;
import io.podnuma.agent.pods.DeviceRequests;
import io.podnuma.podresources.v1.ContainerDevices;
import io.podnuma.podresources.v1.NUMANode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The devices the kubelet gave a pod, as the engine takes them (pure): from the kubelet's PodResources answers, and
 * whether they are all the pod asks for. The kubelet gives devices when it admits the pod, which may be just after
 * the agent first sees it.
 */
final class GivenDevices {

    private GivenDevices() {}

    /**
     * @param assigned the kubelet's devices of the pod's containers
     * @param allocatable every device of the node, as the kubelet's GetAllocatableResources lists them
     */
    static PodDevices of(
            PodRef ref, DeviceRequests requests, DeviceAssignments assigned, List<ContainerDevices> allocatable) {
        Map<String, List<Device>> byContainer = new LinkedHashMap<>();
        for (String container : requests.byContainer().keySet()) {
            byContainer.put(
                    container,
                    devices(assigned.of(new ContainerKey(ref.namespace(), ref.name(), container))
                            .devices()));
        }
        return new PodDevices(byContainer, devices(allocatable));
    }

    /** What the kubelet has not given yet, e.g. {@code container m: example.com/accel 0 of 1}; empty: all given. */
    static Optional<String> missing(DeviceRequests requests, PodDevices given) {
        List<String> short_ = new ArrayList<>();
        requests.byContainer()
                .forEach((container, wanted) -> wanted.forEach((resource, count) -> {
                    long got = given.of(container).stream()
                            .filter(d -> d.resource().equals(resource))
                            .count();
                    if (got < count) {
                        short_.add("container " + container + ": " + resource + " " + got + " of " + count);
                    }
                }));
        return short_.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", short_));
    }

    /** One {@link Device} per id: the kubelet lists a resource's ids by the NUMA nodes they share. */
    private static List<Device> devices(List<ContainerDevices> list) {
        List<Device> out = new ArrayList<>();
        for (ContainerDevices cd : list) {
            TreeSet<Integer> nodes = new TreeSet<>();
            if (cd.hasTopology()) {
                for (NUMANode n : cd.getTopology().getNodesList()) {
                    nodes.add(Math.toIntExact(n.getID()));
                }
            }
            cd.getDeviceIdsList().forEach(id -> out.add(new Device(cd.getResourceName(), id, nodes)));
        }
        return out;
    }
}
