package io.podnuma.demo.pinning;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podnuma.testkit.cpu.CpuList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The part of a node's {@code NumaNodeState} the demo shows, read as plain JSON so the demo sees exactly what any
 * client sees.
 */
public record NodeStateView(CpuList sharedPool, CpuList reservedCpus, int exclusiveCpus, List<PodView> pods) {

    public static final String API_VERSION = "podnuma.io/v1alpha1";
    public static final String KIND = "NumaNodeState";

    /** One pod's allocation: its bubble (pod scope with a budget) and its containers. */
    public record PodView(String namespace, String name, Optional<CpuList> bubble, List<ContainerView> containers) {}

    /**
     * One container's allocation.
     *
     * @param assignment {@code Exclusive}, {@code PodShared} or {@code NodeShared}
     */
    public record ContainerView(String name, String assignment, CpuList cpus) {}

    public NodeStateView {
        pods = List.copyOf(pods);
    }

    /** The node's object, or empty while its agent has not written one (or has removed it). */
    public static Optional<NodeStateView> read(KubernetesClient client, String nodeName) {
        GenericKubernetesResource r = client.genericKubernetesResources(API_VERSION, KIND)
                .withName(nodeName)
                .get();
        if (r == null || !(r.getAdditionalProperties().get("status") instanceof Map<?, ?> status)) {
            return Optional.empty();
        }
        List<PodView> pods = new ArrayList<>();
        for (Map<?, ?> pod : maps(status.get("allocations"))) {
            List<ContainerView> containers = new ArrayList<>();
            for (Map<?, ?> c : maps(pod.get("containers"))) {
                containers.add(new ContainerView(
                        text(c.get("name")), text(c.get("assignment")), CpuList.parse(text(c.get("cpus")))));
            }
            pods.add(new PodView(
                    text(pod.get("namespace")),
                    text(pod.get("name")),
                    Optional.ofNullable(pod.get("cpus")).map(o -> CpuList.parse(text(o))),
                    containers));
        }
        Object exclusive = status.get("exclusiveCpus");
        return Optional.of(new NodeStateView(
                CpuList.parse(text(status.get("sharedPool"))),
                CpuList.parse(text(status.get("reservedCpus"))),
                exclusive instanceof Number n ? n.intValue() : 0,
                pods));
    }

    public Optional<PodView> pod(String namespace, String name) {
        return pods.stream()
                .filter(p -> p.namespace().equals(namespace) && p.name().equals(name))
                .findFirst();
    }

    public Optional<ContainerView> container(String namespace, String pod, String container) {
        return pod(namespace, pod)
                .flatMap(p -> p.containers().stream()
                        .filter(c -> c.name().equals(container))
                        .findFirst());
    }

    private static List<Map<?, ?>> maps(Object list) {
        List<Map<?, ?>> out = new ArrayList<>();
        if (list instanceof List<?> l) {
            l.stream().filter(Map.class::isInstance).forEach(o -> out.add((Map<?, ?>) o));
        }
        return out;
    }

    private static String text(Object o) {
        return Objects.toString(o, "");
    }
}
