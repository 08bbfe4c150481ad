package io.podnuma.agent.engine.device;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the kubelet's device manager gave a pod, and what the node has. podnuma does not hand devices out: the kubelet
 * does, before the containers are created; podnuma places the CPUs and memory where those devices are.
 *
 * @param byContainer the devices each container of the pod holds, by container name
 * @param node every device the node has (the kubelet's allocatable devices), for the narrowest NUMA span that could
 *     serve a request
 */
public record PodDevices(Map<String, List<Device>> byContainer, List<Device> node) {

    /** A pod without devices. */
    public static final PodDevices NONE = new PodDevices(Map.of(), List.of());

    public PodDevices {
        Map<String, List<Device>> copy = new LinkedHashMap<>();
        byContainer.forEach((c, devices) -> copy.put(c, List.copyOf(devices)));
        byContainer = java.util.Collections.unmodifiableMap(copy);
        node = List.copyOf(node);
    }

    public List<Device> of(String container) {
        return byContainer.getOrDefault(container, List.of());
    }

    /** Every device of the pod once (an init container's device that an app container reuses counts once). */
    public List<Device> ofPod() {
        return distinct(byContainer.values().stream().flatMap(List::stream).toList());
    }

    public boolean isEmpty() {
        return byContainer.values().stream().allMatch(List::isEmpty);
    }

    static List<Device> distinct(Collection<Device> devices) {
        Map<String, Device> byKey = new LinkedHashMap<>();
        for (Device d : devices) {
            byKey.putIfAbsent(d.resource() + "\u0000" + d.id(), d);
        }
        return new ArrayList<>(byKey.values());
    }
}
