package io.podnuma.demo.pinning;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;

/** The demo's pods, bound to the demo node (no scheduler involved: the agent watches pods by node name). */
final class DemoPods {

    private DemoPods() {}

    /**
     * A Guaranteed pod with a pod budget of {@code cpus} whole CPUs ({@code pod.spec.resources}): an app container and
     * a native sidecar (an init container with {@code restartPolicy: Always}), neither with resources of its own, so
     * both share the pod's bubble.
     */
    static Pod budgeted(String namespace, String name, String node, int cpus) {
        Quantity cpu = new Quantity(Integer.toString(cpus));
        Quantity memory = new Quantity("256Mi");
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .withNewResources()
                .addToRequests("cpu", cpu)
                .addToRequests("memory", memory)
                .addToLimits("cpu", cpu)
                .addToLimits("memory", memory)
                .endResources()
                .addNewInitContainer()
                .withName("proxy")
                .withImage("envoyproxy/envoy")
                .withRestartPolicy("Always")
                .endInitContainer()
                .addNewContainer()
                .withName("engine")
                .withImage("example.com/trading-engine")
                .endContainer()
                .endSpec()
                .build();
    }

    /** A Burstable pod: a CPU request, no limit. It runs on the node's shared pool. */
    static Pod burstable(String namespace, String name, String node) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .addNewContainer()
                .withName("web")
                .withImage("nginx")
                .withNewResources()
                .addToRequests("cpu", new Quantity("100m"))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }
}
