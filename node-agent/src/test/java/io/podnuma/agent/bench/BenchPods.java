package io.podnuma.agent.bench;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.agent.testing.TestResources;
import java.util.ArrayList;
import java.util.List;

/**
 * The bench's pods, all bound to one node: the first has a pod-level budget of one whole CPU (Guaranteed, so its
 * containers share an exclusive CPU: the pod's bubble); every other one is Burstable and runs on the node's shared
 * pool. Each has {@code containers} containers.
 */
public final class BenchPods {

    public static final String LABEL = "podnuma.io/bench";

    private BenchPods() {}

    public static List<Pod> of(String node, int pods, int containers) {
        if (pods < 1 || containers < 1) {
            throw new IllegalArgumentException(
                    "pods " + pods + ", containers " + containers + ": allowed at least one of each");
        }
        List<Pod> out = new ArrayList<>();
        out.add(pinned(node, "pinned-0", containers));
        for (int i = 1; i < pods; i++) {
            out.add(shared(node, "shared-" + i, containers));
        }
        return out;
    }

    public static boolean pinned(Pod pod) {
        return pod.getMetadata().getName().startsWith("pinned-");
    }

    static Pod pinned(String node, String name, int containers) {
        List<Container> cs = new ArrayList<>();
        for (int c = 0; c < containers; c++) {
            cs.add(new ContainerBuilder().withName("c" + c).withImage("app").build());
        }
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels(LABEL, "true")
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .withResources(TestResources.guaranteed("1", "256Mi"))
                .withContainers(cs)
                .endSpec()
                .build();
    }

    static Pod shared(String node, String name, int containers) {
        List<Container> cs = new ArrayList<>();
        for (int c = 0; c < containers; c++) {
            cs.add(new ContainerBuilder()
                    .withName("c" + c)
                    .withImage("app")
                    .withNewResources()
                    .addToRequests("cpu", new Quantity("10m"))
                    .addToRequests("memory", new Quantity("8Mi"))
                    .endResources()
                    .build());
        }
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels(LABEL, "true")
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .withContainers(cs)
                .endSpec()
                .build();
    }
}
