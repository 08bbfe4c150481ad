package io.podnuma.agent.engine.device;

import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyHint;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The topology hints of devices already given to a pod or container, as the kubelet's device manager makes them for
 * devices it has allocated: a NUMA mask is a hint when the given devices attached to it are as many as were given,
 * and a preferred one when no narrower mask holds that many of the node's devices. A resource none of whose devices
 * reports a NUMA node has no preference; a given device without topology matches no mask.
 */
public final class DeviceHints {

    private DeviceHints() {}

    /**
     * @param given the devices of the pod (pod scope) or of the container (container scope)
     * @param node every device of the node, {@code given} included or not
     * @param numaNodes the machine's NUMA nodes
     * @return each resource of {@code given} with its hints; a resource without topology maps to null (no preference)
     */
    public static Map<String, List<TopologyHint>> of(
            Collection<Device> given, Collection<Device> node, NumaMask numaNodes) {
        Map<String, List<Device>> givenByResource = byResource(PodDevices.distinct(given));
        Map<String, List<Device>> nodeByResource = byResource(
                PodDevices.distinct(Stream.concat(node.stream(), given.stream()).toList()));
        Map<String, List<TopologyHint>> out = new TreeMap<>();
        givenByResource.forEach((resource, devices) -> {
            List<Device> all = nodeByResource.get(resource);
            out.put(resource, all.stream().anyMatch(Device::hasTopology) ? hints(devices, all, numaNodes) : null);
        });
        return out;
    }

    private static List<TopologyHint> hints(List<Device> given, List<Device> all, NumaMask numaNodes) {
        int request = given.size();
        List<NumaMask> fitting = new ArrayList<>();
        int[] narrowest = {numaNodes.count()};
        NumaMask.forEachSubsetBySize(numaNodes, word -> {
            NumaMask mask = NumaMask.ofBits(word);
            if (attached(all, mask) >= request && mask.count() < narrowest[0]) {
                narrowest[0] = mask.count();
            }
            if (attached(given, mask) >= request) {
                fitting.add(mask);
            }
        });
        return fitting.stream()
                .map(m -> new TopologyHint(m, m.count() == narrowest[0]))
                .toList();
    }

    /** How many of {@code devices} are attached to a node of {@code mask}. */
    private static long attached(List<Device> devices, NumaMask mask) {
        return devices.stream()
                .filter(d -> d.numaNodes().stream().anyMatch(mask::contains))
                .count();
    }

    private static Map<String, List<Device>> byResource(List<Device> devices) {
        Map<String, List<Device>> out = new TreeMap<>();
        devices.forEach(
                d -> out.computeIfAbsent(d.resource(), r -> new ArrayList<>()).add(d));
        return out;
    }
}
