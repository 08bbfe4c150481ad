package io.podnuma.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.testkit.agent.Simulation.Placement;
import io.podnuma.testkit.cpu.CpuList;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the kubelet's CPU and memory managers decided, from their checkpoints ({@code cpu_manager_state},
 * {@code memory_manager_state}): each container's CPUs (its entry, or the shared {@code defaultCpuSet}) and memory
 * nodes (the union of its blocks' NUMA affinity, or every node). The managers write them when they admit a pod, before
 * any container starts.
 */
record KubeletCheckpoints(JsonNode cpu, JsonNode memory) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The two files' contents, as {@link #script} prints them. */
    static KubeletCheckpoints parse(String output) {
        String[] parts = output.split("\n----\n", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("expected the two checkpoints separated by ----, got:\n" + output);
        }
        try {
            return new KubeletCheckpoints(JSON.readTree(parts[0]), JSON.readTree(parts[1]));
        } catch (IOException e) {
            throw new UncheckedIOException("a kubelet checkpoint is not JSON: " + e.getMessage(), e);
        }
    }

    /** Prints both checkpoints for {@link #parse}; {@code root} is the kubelet's root directory. */
    static String script(String root) {
        return "cat " + root + "/cpu_manager_state\necho\necho ----\ncat " + root + "/memory_manager_state\n";
    }

    /** Every container of {@code pods} (sidecars included) as the managers placed it, by pod name. */
    Map<String, Map<String, Placement>> placements(List<Pod> pods, int numaNodes) {
        CpuList shared = CpuList.parse(cpu.path("defaultCpuSet").asText());
        List<Integer> nodes = new ArrayList<>();
        for (int n = 0; n < numaNodes; n++) {
            nodes.add(n);
        }
        CpuList everyNode = CpuList.of(nodes.toArray(Integer[]::new));
        Map<String, Map<String, Placement>> out = new TreeMap<>();
        for (Pod pod : pods) {
            String uid = pod.getMetadata().getUid();
            Map<String, Placement> cs = new TreeMap<>();
            for (String c : containerNames(pod)) {
                JsonNode cpus = cpu.path("entries").path(uid).path(c);
                JsonNode blocks = memory.path("entries").path(uid).path(c);
                List<Integer> mems = new ArrayList<>();
                blocks.forEach(b -> b.path("numaAffinity").forEach(n -> mems.add(n.asInt())));
                cs.put(
                        c,
                        new Placement(
                                cpus.isMissingNode() ? shared : CpuList.parse(cpus.asText()),
                                mems.isEmpty() ? everyNode : CpuList.of(mems.toArray(Integer[]::new))));
            }
            out.put(pod.getMetadata().getName(), cs);
        }
        return out;
    }

    /** The containers that run for the pod's life: restartable init containers (sidecars) and app containers. */
    private static List<String> containerNames(Pod pod) {
        List<String> names = new ArrayList<>();
        if (pod.getSpec().getInitContainers() != null) {
            pod.getSpec().getInitContainers().stream()
                    .filter(c -> "Always".equals(c.getRestartPolicy()))
                    .map(Container::getName)
                    .forEach(names::add);
        }
        pod.getSpec().getContainers().stream().map(Container::getName).forEach(names::add);
        return names;
    }
}
