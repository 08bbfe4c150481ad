package io.podnuma.e2e.journey;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podnuma.e2e.realnode.RealNodeAgent;
import io.podnuma.operator.render.AgentRender;
import io.podnuma.testkit.Waits;
import io.podnuma.testkit.chart.PodnumaChart;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/** The journey policy's agent pod on one node, as every driver finds it and waits for it. */
final class AgentPods {

    private AgentPods() {}

    /** The node's agent pod that is not being deleted, if there is one. */
    static Optional<Pod> current(KubernetesClient client, String node) {
        return current(client, node, HelmJourneyScenario.POLICY);
    }

    /** The node's agent pod for policy {@code policy} that is not being deleted, if there is one. */
    static Optional<Pod> current(KubernetesClient client, String node, String policy) {
        return client
                .pods()
                .inNamespace(PodnumaChart.NAMESPACE)
                .withLabels(AgentRender.selector(policy))
                .list()
                .getItems()
                .stream()
                .filter(p -> node.equals(p.getSpec().getNodeName()))
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .findFirst();
    }

    /**
     * The node's agent pod once it is Ready and is not {@code notThisUid} (the one an update replaced); {@code cluster}
     * says what the cluster looked like if it never gets there.
     */
    static Pod awaitReady(
            KubernetesClient client,
            String node,
            Optional<String> notThisUid,
            Duration timeout,
            Supplier<String> cluster)
            throws InterruptedException {
        return awaitReady(client, node, HelmJourneyScenario.POLICY, notThisUid, timeout, cluster);
    }

    /** {@link #awaitReady(KubernetesClient, String, Optional, Duration, Supplier)} for the agent of {@code policy}. */
    static Pod awaitReady(
            KubernetesClient client,
            String node,
            String policy,
            Optional<String> notThisUid,
            Duration timeout,
            Supplier<String> cluster)
            throws InterruptedException {
        return Waits.await(
                timeout,
                () -> "a Ready agent pod on " + node + "; the cluster:\n" + cluster.get(),
                () -> current(client, node, policy)
                        .filter(p -> notThisUid
                                .map(u -> !u.equals(p.getMetadata().getUid()))
                                .orElse(true))
                        .filter(RealNodeAgent::ready));
    }
}
