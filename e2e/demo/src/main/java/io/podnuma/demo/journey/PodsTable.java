package io.podnuma.demo.journey;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.testkit.chart.PodnumaChart;
import io.podnuma.testkit.nodestate.NodeStateReads;
import io.podnuma.testkit.realnode.WorkloadPods;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What the demo reads off a node: each container as it reports itself, and whether the policy's agent is Ready. */
final class PodsTable {

    /** Said of a container when its node has no {@code NumaNodeState}: no policy governs the node. */
    static final String NOT_GOVERNED = "none (not governed)";

    private PodsTable() {}

    /**
     * Each container of {@code containers} (pod name → container names, in namespace {@code namespace}) as it reports
     * itself through {@code kubectl exec}, with the pool kind node {@code node}'s {@code NumaNodeState} gives it.
     */
    static List<ContainerRow> rows(
            ControlPlane plane, String node, String namespace, Map<String, List<String>> containers) {
        Optional<Map<?, ?>> state = NodeStateReads.status(plane.client(), node);
        List<ContainerRow> rows = new ArrayList<>();
        containers.forEach((pod, names) -> names.forEach(c -> {
            WorkloadPods.Affinity a = WorkloadPods.reported(plane, namespace, pod, c);
            String pool = state.map(s -> NodeStateReads.container(s, namespace, pod, c)
                            .map(m -> String.valueOf(m.get("assignment")))
                            .orElse("NodeShared"))
                    .orElse(NOT_GOVERNED);
            rows.add(new ContainerRow(pod, c, a.cpus(), a.mems(), pool));
        }));
        return rows;
    }

    /** Present once the agent pod of {@code policy} on {@code node} is Ready. */
    static Optional<Pod> readyAgent(ControlPlane plane, String node, String policy) {
        return agentPods(plane, node, policy).stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .filter(p -> p.getStatus().getConditions() != null
                        && p.getStatus().getConditions().stream()
                                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
                .findFirst();
    }

    /**
     * The agent pods of {@code policy} on {@code node} as a wait that timed out should report them: phase, and each
     * container's state, readiness and restarts.
     */
    static String agentPodsNow(ControlPlane plane, String node, String policy) {
        List<String> said = new ArrayList<>();
        for (Pod p : agentPods(plane, node, policy)) {
            StringBuilder b = new StringBuilder(p.getMetadata().getName())
                    .append(" ")
                    .append(p.getStatus().getPhase());
            if (p.getMetadata().getDeletionTimestamp() != null) {
                b.append(" (terminating)");
            }
            Optional.ofNullable(p.getStatus().getContainerStatuses())
                    .orElse(List.of())
                    .forEach(c -> b.append(", ")
                            .append(c.getName())
                            .append(": ready=")
                            .append(c.getReady())
                            .append(" restarts=")
                            .append(c.getRestartCount())
                            .append(" state=")
                            .append(c.getState()));
            said.add(b.toString());
        }
        return said.isEmpty() ? "no agent pod on " + node : String.join("; ", said);
    }

    private static List<Pod> agentPods(ControlPlane plane, String node, String policy) {
        return plane
                .client()
                .pods()
                .inNamespace(PodnumaChart.NAMESPACE)
                .withLabel("app.kubernetes.io/name", "podnuma-agent")
                .withLabel("podnuma.io/policy", policy)
                .list()
                .getItems()
                .stream()
                .filter(p -> node.equals(p.getSpec().getNodeName()))
                .toList();
    }
}
