package io.podnuma.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the kubelet's device manager gave each container, from its checkpoint
 * ({@code device-plugins/kubelet_internal_checkpoint}, written when it admits a pod): the device ids by resource, per
 * pod UID and container. Each entry's ids are listed by NUMA node; the node does not matter here, the plugin said it.
 */
record KubeletDevices(JsonNode checkpoint) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Prints the checkpoint for {@link #parse}; {@code root} is the kubelet's root directory. */
    static String script(String root) {
        return "cat " + root + "/device-plugins/kubelet_internal_checkpoint\n";
    }

    static KubeletDevices parse(String output) {
        try {
            return new KubeletDevices(JSON.readTree(output));
        } catch (IOException e) {
            throw new UncheckedIOException("the device manager's checkpoint is not JSON: " + e.getMessage(), e);
        }
    }

    /** The device ids each container of the pod {@code uid} holds, by container name. */
    Map<String, List<String>> given(String uid) {
        Map<String, List<String>> out = new TreeMap<>();
        for (JsonNode entry : checkpoint.path("Data").path("PodDeviceEntries")) {
            if (!uid.equals(entry.path("PodUID").asText())) {
                continue;
            }
            out.computeIfAbsent(entry.path("ContainerName").asText(), c -> new ArrayList<>())
                    .addAll(ids(entry));
        }
        out.values().forEach(ids -> ids.sort(null));
        return out;
    }

    /** Every device id the kubelet has given, to any container. */
    List<String> allGiven() {
        List<String> ids = new ArrayList<>();
        for (JsonNode entry : checkpoint.path("Data").path("PodDeviceEntries")) {
            ids.addAll(ids(entry));
        }
        return ids;
    }

    /** An entry's ids: listed by NUMA node (a map) since the kubelet 1.20, a plain list before. */
    private static List<String> ids(JsonNode entry) {
        List<String> ids = new ArrayList<>();
        JsonNode byNode = entry.path("DeviceIDs");
        if (byNode.isArray()) {
            byNode.forEach(id -> ids.add(id.asText()));
        } else {
            byNode.forEach(list -> list.forEach(id -> ids.add(id.asText())));
        }
        return ids;
    }
}
