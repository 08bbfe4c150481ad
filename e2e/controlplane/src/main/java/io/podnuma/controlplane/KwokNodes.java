package io.podnuma.controlplane;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Creates the Node objects that kwok plays the kubelet for. kwok never creates nodes itself; it only
 * manages those carrying {@value #KWOK_LABEL}{@code =true}, so tests may still create other nodes freely.
 */
public final class KwokNodes {

    /** The label kwok selects the nodes it manages by. */
    public static final String KWOK_LABEL = "podnuma.io/kwok";

    public static final String NAME_PREFIX = "kwok-node-";

    /** What each kwok node offers: enough for a few dozen small pods, like a mid-size worker. */
    public static final Map<String, String> DEFAULT_ALLOCATABLE =
            Map.of("cpu", "32", "memory", "128Gi", "pods", "110", "ephemeral-storage", "100Gi");

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

    private final KubernetesClient client;

    KwokNodes(KubernetesClient client) {
        this.client = client;
    }

    static String nodeName(int index) {
        return NAME_PREFIX + index;
    }

    /** Creates the missing nodes among the first {@code count}, then waits until all are Ready and untainted. */
    List<String> ensure(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1, was " + count);
        }
        List<String> names =
                IntStream.range(0, count).mapToObj(KwokNodes::nodeName).toList();
        for (String name : names) {
            if (client.nodes().withName(name).get() == null) {
                client.nodes().resource(desired(name)).create();
            }
        }
        awaitSchedulable(names);
        return names;
    }

    /** Like {@link #ensure(int)} for one node with extra labels and its own allocatable resources. */
    String ensure(String name, Map<String, String> extraLabels, Map<String, String> allocatable) {
        if (allocatable.isEmpty()) {
            throw new IllegalArgumentException("allocatable for node " + name
                    + " is empty; give at least cpu, memory and pods, e.g. " + DEFAULT_ALLOCATABLE);
        }
        if (client.nodes().withName(name).get() == null) {
            client.nodes().resource(desired(name, extraLabels, allocatable)).create();
        }
        awaitSchedulable(List.of(name));
        return name;
    }

    static Node desired(String name) {
        return desired(name, Map.of(), DEFAULT_ALLOCATABLE);
    }

    static Node desired(String name, Map<String, String> extraLabels, Map<String, String> allocatable) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("kubernetes.io/hostname", name);
        labels.put("kubernetes.io/os", "linux");
        labels.put("kubernetes.io/arch", "amd64");
        labels.put("type", "kwok");
        labels.putAll(extraLabels);
        // Last, so a caller cannot accidentally take the node away from kwok.
        labels.put(KWOK_LABEL, "true");
        Map<String, Quantity> resources = new LinkedHashMap<>();
        allocatable.forEach((resource, amount) -> resources.put(resource, new Quantity(amount)));
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(labels)
                .addToAnnotations("kwok.x-k8s.io/node", "fake")
                .endMetadata()
                .withNewSpec()
                .endSpec()
                .withNewStatus()
                .withCapacity(resources)
                .withAllocatable(resources)
                .endStatus()
                .build();
    }

    /**
     * A fresh node carries the not-ready taint (added at admission) until the controller-manager sees kwok's
     * Ready condition; pods without a toleration only schedule after that.
     */
    private void awaitSchedulable(List<String> names) {
        Instant deadline = Instant.now().plus(READY_TIMEOUT);
        List<String> waiting = new ArrayList<>(names);
        while (true) {
            waiting.removeIf(name -> schedulable(client.nodes().withName(name).get()));
            if (waiting.isEmpty()) {
                return;
            }
            if (Instant.now().isAfter(deadline)) {
                List<String> states = waiting.stream()
                        .map(name -> describe(client.nodes().withName(name).get()))
                        .toList();
                throw new IllegalStateException("kwok nodes not Ready and untainted within " + READY_TIMEOUT + ": "
                        + states + "; see the kwok and kube-controller-manager logs");
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for kwok nodes", e);
            }
        }
    }

    static boolean schedulable(Node node) {
        if (node == null || node.getStatus() == null || node.getStatus().getConditions() == null) {
            return false;
        }
        boolean ready = node.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        boolean tainted = node.getSpec() != null
                && node.getSpec().getTaints() != null
                && !node.getSpec().getTaints().isEmpty();
        return ready && !tainted;
    }

    private static String describe(Node node) {
        if (node == null) {
            return "(missing)";
        }
        List<String> conditions = node.getStatus() == null || node.getStatus().getConditions() == null
                ? List.of()
                : node.getStatus().getConditions().stream()
                        .map(c -> c.getType() + "=" + c.getStatus())
                        .toList();
        return node.getMetadata().getName() + " conditions=" + conditions + " taints="
                + (node.getSpec() == null ? "[]" : node.getSpec().getTaints());
    }
}
