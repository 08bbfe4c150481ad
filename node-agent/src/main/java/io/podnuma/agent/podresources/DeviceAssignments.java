package io.podnuma.agent.podresources;

import io.podnuma.podresources.v1.ContainerDevices;
import io.podnuma.podresources.v1.DynamicResource;
import io.podnuma.podresources.v1.GetPodResourcesResponse;
import io.podnuma.podresources.v1.ListPodResourcesResponse;
import io.podnuma.podresources.v1.PodResources;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Devices (device plugins) and dynamic resources (DRA) per container, as the kubelet reported them. podnuma does
 * not manage devices; it passes the kubelet's answer through so one socket gives the whole picture.
 */
public record DeviceAssignments(Map<ContainerKey, Assigned> containers) {

    public static final DeviceAssignments NONE = new DeviceAssignments(Map.of());

    /** What one container holds besides CPUs and memory. */
    public record Assigned(List<ContainerDevices> devices, List<DynamicResource> dynamicResources) {

        public Assigned {
            devices = List.copyOf(devices);
            dynamicResources = List.copyOf(dynamicResources);
        }
    }

    public DeviceAssignments {
        containers = Map.copyOf(containers);
    }

    public Assigned of(ContainerKey key) {
        return containers.getOrDefault(key, new Assigned(List.of(), List.of()));
    }

    public static DeviceAssignments from(ListPodResourcesResponse response) {
        return from(response.getPodResourcesList());
    }

    public static DeviceAssignments from(GetPodResourcesResponse response) {
        return response.hasPodResources() ? from(List.of(response.getPodResources())) : NONE;
    }

    private static DeviceAssignments from(List<PodResources> pods) {
        Map<ContainerKey, Assigned> out = new HashMap<>();
        for (PodResources pod : pods) {
            pod.getContainersList().forEach(c -> {
                if (c.getDevicesCount() > 0 || c.getDynamicResourcesCount() > 0) {
                    out.put(
                            new ContainerKey(pod.getNamespace(), pod.getName(), c.getName()),
                            new Assigned(c.getDevicesList(), c.getDynamicResourcesList()));
                }
            });
        }
        return new DeviceAssignments(out);
    }
}
