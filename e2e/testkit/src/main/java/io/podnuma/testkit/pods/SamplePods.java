package io.podnuma.testkit.pods;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pods the tests, the bench and the demo run, bound to a node by name (no scheduler involved: the agent watches
 * pods by node name). The names and images are labels only: kwok runs no image.
 */
public final class SamplePods {

    /** The label every bench pod carries, so the bench lists its own. */
    public static final String BENCH_LABEL = "podnuma.io/bench";

    private SamplePods() {}

    /** Requests equal to limits, CPU and memory: what makes a pod (or its budget) Guaranteed. */
    public static ResourceRequirements guaranteed(String cpu, String memory) {
        Map<String, Quantity> both = Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory));
        return new ResourceRequirementsBuilder()
                .addToRequests(both)
                .addToLimits(both)
                .build();
    }

    /**
     * A Guaranteed pod with a pod budget ({@code pod.spec.resources}) of {@code cpus} whole CPUs and 256Mi: the app
     * container {@code engine} and the native sidecar {@code proxy} (an init container with
     * {@code restartPolicy: Always}), neither with resources of its own, so both share the pod's bubble.
     */
    public static Pod budgeted(String node, String name, int cpus) {
        return onNode(node, name)
                .editSpec()
                .withResources(guaranteed(Integer.toString(cpus), "256Mi"))
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

    /**
     * {@code pod} with its app container {@code container} asking for {@code count} of the extended resource
     * {@code resource} (a device plugin's: a limit, which the API server copies to the request).
     */
    public static Pod withDevices(Pod pod, String container, String resource, int count) {
        Pod copy = new PodBuilder(pod).build();
        Container c = copy.getSpec().getContainers().stream()
                .filter(x -> x.getName().equals(container))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "pod " + pod.getMetadata().getName() + " has no app container " + container));
        if (c.getResources() == null) {
            c.setResources(new ResourceRequirements());
        }
        Map<String, Quantity> limits = new LinkedHashMap<>(
                c.getResources().getLimits() == null
                        ? Map.of()
                        : c.getResources().getLimits());
        limits.put(resource, new Quantity(Integer.toString(count)));
        c.getResources().setLimits(limits);
        return copy;
    }

    /** {@link #budgeted(String, String, int)} with a one-CPU budget. */
    public static Pod budgeted(String node, String name) {
        return budgeted(node, name, 1);
    }

    /**
     * A Burstable pod: one container {@code web} asking for 64Mi of memory, no limit and no CPU (so it takes no CPU
     * from a two-CPU node's budget). It runs on the node's shared pool.
     */
    public static Pod burstable(String node, String name) {
        return onNode(node, name)
                .editSpec()
                .addNewContainer()
                .withName("web")
                .withImage("nginx")
                .withNewResources()
                .addToRequests("memory", new Quantity("64Mi"))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }

    /** A BestEffort pod: one container {@code batch} without requests or limits. */
    public static Pod bestEffort(String node, String name) {
        return onNode(node, name)
                .editSpec()
                .addNewContainer()
                .withName("batch")
                .withImage("busybox")
                .endContainer()
                .endSpec()
                .build();
    }

    /** A pod named {@code name} bound to {@code node}, nothing else yet. */
    private static PodBuilder onNode(String node, String name) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .endSpec();
    }

    /** The pod with {@code metadata.namespace} set (the demo creates its pods from the objects as they are). */
    public static Pod inNamespace(String namespace, Pod pod) {
        return new PodBuilder(pod)
                .editMetadata()
                .withNamespace(namespace)
                .endMetadata()
                .build();
    }

    /**
     * The bench's node of pods: the first, {@code pinned-0}, has a pod-level budget of one whole CPU (Guaranteed, so
     * its containers share an exclusive CPU: the pod's bubble); every other one, {@code shared-<i>}, is Burstable and
     * runs on the node's shared pool. Each has {@code containers} containers {@code c0, c1, ...}.
     */
    public static List<Pod> benchNode(String node, int pods, int containers) {
        if (pods < 1 || containers < 1) {
            throw new IllegalArgumentException(
                    "pods " + pods + ", containers " + containers + ": allowed at least one of each");
        }
        List<Pod> out = new ArrayList<>();
        out.add(benchPinned(node, "pinned-0", containers));
        for (int i = 1; i < pods; i++) {
            out.add(benchShared(node, "shared-" + i, containers));
        }
        return out;
    }

    /** Whether a bench pod is the pinned one. */
    public static boolean isBenchPinned(Pod pod) {
        return pod.getMetadata().getName().startsWith("pinned-");
    }

    /** A bench pod with a one-CPU pod budget and {@code containers} containers without resources of their own. */
    public static Pod benchPinned(String node, String name, int containers) {
        List<Container> cs = new ArrayList<>();
        for (int c = 0; c < containers; c++) {
            cs.add(new ContainerBuilder().withName("c" + c).withImage("app").build());
        }
        return onNode(node, name)
                .editMetadata()
                .addToLabels(BENCH_LABEL, "true")
                .endMetadata()
                .editSpec()
                .withResources(guaranteed("1", "256Mi"))
                .withContainers(cs)
                .endSpec()
                .build();
    }

    /** A Burstable bench pod whose {@code containers} containers ask for 10m and 8Mi each. */
    public static Pod benchShared(String node, String name, int containers) {
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
        return onNode(node, name)
                .editMetadata()
                .addToLabels(BENCH_LABEL, "true")
                .endMetadata()
                .editSpec()
                .withContainers(cs)
                .endSpec()
                .build();
    }
}
