package io.podnuma.testkit.kwok;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.Map;

/**
 * Pod objects that stand for a process of this machine, as Kubernetes service discovery sees a pod: a host-network pod
 * on a {@link LoopbackNode} (so its address is {@value LoopbackNode#ADDRESS}), labelled as the real pod would be,
 * naming the process's port {@value #METRICS_PORT}. kwok plays it Running; nothing runs in it. EndpointSlices cannot
 * do this: the API server refuses loopback endpoints.
 */
public final class StandInPods {

    /** The port name the scrape configs keep. */
    public static final String METRICS_PORT = "metrics";

    private StandInPods() {}

    /** A pod {@code namespace/name} on {@code node} with {@code labels} whose container names {@code metricsPort}. */
    public static Pod forProcess(
            String namespace,
            String name,
            String node,
            Map<String, String> labels,
            String container,
            String image,
            int metricsPort) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .withLabels(Map.copyOf(labels))
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .withHostNetwork(true)
                .addNewContainer()
                .withName(container)
                .withImage(image)
                .addNewPort()
                .withName(METRICS_PORT)
                .withContainerPort(metricsPort)
                .endPort()
                .endContainer()
                .endSpec()
                .build();
    }
}
