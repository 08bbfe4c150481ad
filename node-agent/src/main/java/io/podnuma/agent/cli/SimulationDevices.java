package io.podnuma.agent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.agent.engine.device.Device;
import io.podnuma.agent.engine.device.PodDevices;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * simulate's devices: the node's ({@code --devices}: resource → device id → NUMA nodes, as the kubelet's
 * {@code GetAllocatableResources} reports them) and those the kubelet gave a pod (annotation
 * {@value #GIVEN_ANNOTATION}: {@code <container>=<id>[,<id>...][;<container>=...]}), for the engine to place the pod's
 * CPUs and memory where its devices are, as the agent does with what the kubelet's PodResources socket says.
 */
final class SimulationDevices {

    static final String GIVEN_ANNOTATION = "podnuma.io/simulate-devices";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final Map<String, Device> byId;

    private SimulationDevices(Map<String, Device> byId) {
        this.byId = byId;
    }

    /** A node without devices: a pod that names some is an input error. */
    static SimulationDevices none() {
        return new SimulationDevices(Map.of());
    }

    /**
     * The node's devices from {@code file}, e.g. {@code example.com/accel: {accel-0: [1], accel-1: [1]}}; an empty
     * list is a device without topology.
     */
    static SimulationDevices read(Path file) {
        JsonNode tree;
        try {
            tree = YAML.readTree(file.toFile());
        } catch (IOException e) {
            throw new SimulationInputs.InputException(
                    file + ": cannot read: " + SimulationInputs.firstLine(e.getMessage()));
        }
        if (tree == null || !tree.isObject() || tree.isEmpty()) {
            throw new SimulationInputs.InputException(file + ": expected the node's devices, resource → device id →"
                    + " NUMA nodes, e.g. example.com/accel: {accel-0: [1]}");
        }
        Map<String, Device> byId = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> resource : tree.properties()) {
            if (!resource.getValue().isObject() || resource.getValue().isEmpty()) {
                throw new SimulationInputs.InputException(file + ": " + resource.getKey()
                        + ": expected its devices, device id → NUMA nodes, e.g. {accel-0: [1]}");
            }
            for (Map.Entry<String, JsonNode> device : resource.getValue().properties()) {
                String where = file + ": " + resource.getKey() + "." + device.getKey();
                List<Integer> nodes = numaNodes(where, device.getValue());
                Device previous = byId.put(
                        device.getKey(), Device.of(resource.getKey(), device.getKey(), nodes.toArray(Integer[]::new)));
                if (previous != null) {
                    throw new SimulationInputs.InputException(where + ": device id " + device.getKey()
                            + " is also a device of " + previous.resource() + ": allowed one device per id");
                }
            }
        }
        return new SimulationDevices(byId);
    }

    private static List<Integer> numaNodes(String where, JsonNode value) {
        if (!value.isArray()) {
            throw new SimulationInputs.InputException(where + ": " + value
                    + " is not a list of NUMA nodes: allowed e.g. [1], [0, 1] or [] (no topology)");
        }
        List<Integer> nodes = new ArrayList<>();
        for (JsonNode n : value) {
            if (!n.canConvertToInt() || !n.isIntegralNumber() || n.asInt() < 0) {
                throw new SimulationInputs.InputException(where + ": NUMA node " + n + " is not a number from 0");
            }
            nodes.add(n.asInt());
        }
        return nodes;
    }

    /** What the kubelet gave {@code pod} (from manifest {@code file}), by container, and every device of the node. */
    PodDevices given(String file, Pod pod) {
        String value = Optional.ofNullable(pod.getMetadata().getAnnotations())
                .map(a -> a.get(GIVEN_ANNOTATION))
                .orElse(null);
        if (value == null) {
            return PodDevices.NONE;
        }
        String field = file + ": metadata.annotations[" + GIVEN_ANNOTATION + "]";
        List<String> containers = Stream.concat(
                        pod.getSpec().getContainers().stream(),
                        Optional.ofNullable(pod.getSpec().getInitContainers()).orElse(List.of()).stream())
                .map(Container::getName)
                .toList();
        Map<String, List<Device>> byContainer = new LinkedHashMap<>();
        for (String part : value.split(";")) {
            if (part.isBlank()) {
                continue;
            }
            int eq = part.indexOf('=');
            String container = eq < 0 ? "" : part.substring(0, eq).strip();
            if (eq < 0 || !containers.contains(container)) {
                throw new SimulationInputs.InputException(field + ": \"" + part.strip() + "\" does not name a container"
                        + " of the pod: allowed <container>=<device id>[,<device id>...] for " + containers);
            }
            List<Device> devices = new ArrayList<>();
            for (String id : part.substring(eq + 1).split(",")) {
                Device d = byId.get(id.strip());
                if (d == null) {
                    throw new SimulationInputs.InputException(field + ": device \"" + id.strip() + "\" of container "
                            + container + " is not a device of the node: "
                            + (byId.isEmpty() ? "give the node's devices with --devices" : "allowed " + byId.keySet()));
                }
                devices.add(d);
            }
            byContainer.put(container, devices);
        }
        return new PodDevices(byContainer, List.copyOf(byId.values()));
    }
}
