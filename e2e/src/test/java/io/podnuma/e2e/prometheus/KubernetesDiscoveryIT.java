package io.podnuma.e2e.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.controlplane.CommandResult;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.controlplane.PrometheusApi;
import io.podnuma.controlplane.PrometheusApi.TargetHealth;
import io.podnuma.controlplane.PrometheusServer;
import io.podnuma.controlplane.Promtool;
import io.podnuma.testkit.kwok.StandInPods;
import io.podnuma.testkit.prometheus.GrafanaDashboard;
import io.podnuma.testkit.prometheus.PromQlNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus finds the operator and the agent through Kubernetes service discovery ({@code role: pod}, the
 * kubeconfig of the local control plane) and scrapes them, relabelled the way a user writes it: keep the pods named
 * {@code podnuma-agent} / {@code podnuma-operator} by {@code app.kubernetes.io/name}, and their {@code metrics} port;
 * like the chart's PodMonitor, the pod's node becomes {@code node} and its {@code podnuma.io/policy} label
 * {@code policy}. The chart's Grafana dashboard then finds their series: its variables' values and every panel query
 * with the variables set.
 *
 * <p>The agent's pod is the one the operator's DaemonSet creates on the kwok node; the node's InternalIP is 127.0.0.1
 * and the pod uses the host network, so its address is where the real agent process listens, on the port the
 * operator wrote into the pod spec. The operator's pod is a host-network pod object on the same node naming the real
 * operator's metrics port. EndpointSlices cannot do this: the API server refuses loopback endpoints (checked below).
 */
@ExtendWith(ControlPlaneExtension.class)
class KubernetesDiscoveryIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final String AGENT_APP = "podnuma-agent";
    private static final String OPERATOR_APP = "podnuma-operator";
    private static final String JOB = "podnuma";
    /** What Grafana puts for {@code $__rate_interval}: enough 1 s scrapes for a rate. */
    private static final String RATE_INTERVAL = "1m";

    @TempDir
    static Path dir;

    private static PodnumaOnKwok podnuma;

    @BeforeAll
    static void start(ControlPlane cp) throws Exception {
        Optional<String> why = PodnumaOnKwok.unavailableReason();
        Assumptions.assumeTrue(why.isEmpty(), () -> "the agent cannot run here: " + why.orElse(""));
        podnuma = PodnumaOnKwok.start(cp, dir, "sd");
        cp.client().resource(operatorPod(podnuma)).serverSideApply();
    }

    @AfterAll
    static void stop(ControlPlane cp) throws Exception {
        if (podnuma != null) {
            cp.kubectl("delete", "pod", "-n", PodnumaOnKwok.NAMESPACE, OPERATOR_APP + "-sd", "--ignore-not-found");
            podnuma.stop(cp);
        }
    }

    /** The operator as its Deployment's pod would be seen by discovery: its app label and a port named metrics. */
    private static Pod operatorPod(PodnumaOnKwok podnuma) {
        return StandInPods.forProcess(
                PodnumaOnKwok.NAMESPACE,
                OPERATOR_APP + "-sd",
                podnuma.node,
                Map.of("app.kubernetes.io/name", OPERATOR_APP),
                "operator",
                "podnuma.local/operator:prom",
                podnuma.operator.metricsPort());
    }

    private static String config(ControlPlane cp) {
        return """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                scrape_configs:
                - job_name: %5$s
                  kubernetes_sd_configs:
                  - role: pod
                    kubeconfig_file: %1$s
                    namespaces:
                      names: [%2$s]
                  relabel_configs:
                  - source_labels: [__meta_kubernetes_pod_label_app_kubernetes_io_name]
                    regex: %3$s|%4$s
                    action: keep
                  - source_labels: [__meta_kubernetes_pod_container_port_name]
                    regex: metrics
                    action: keep
                  - source_labels: [__meta_kubernetes_pod_label_app_kubernetes_io_name]
                    target_label: app
                  - source_labels: [__meta_kubernetes_namespace]
                    target_label: namespace
                  - source_labels: [__meta_kubernetes_pod_name]
                    target_label: pod
                  - source_labels: [__meta_kubernetes_pod_node_name]
                    target_label: node
                  - source_labels: [__meta_kubernetes_pod_label_podnuma_io_policy]
                    target_label: policy
                """.formatted(cp.kubeconfig(), PodnumaOnKwok.NAMESPACE, AGENT_APP, OPERATOR_APP, JOB);
    }

    @Test
    void prometheusDiscoversAndScrapesTheOperatorAndTheAgentAndHasTheirSeries(ControlPlane cp) throws Exception {
        Path promDir = dir.resolve("prometheus");
        Files.createDirectories(promDir);
        Files.writeString(promDir.resolve("checked.yml"), config(cp));
        Promtool.Run check = Promtool.in(cp.binDir()).checkConfig(promDir.resolve("checked.yml"));
        assertThat(check.verdict()).as(check.output()).isEqualTo(Promtool.Verdict.PASSED);

        try (PrometheusServer prometheus = PrometheusServer.start(cp, promDir, config(cp))) {
            String agentTarget =
                    PodnumaOnKwok.NODE_IP + ":" + podnuma.agent.placement().metricsPort();
            String operatorTarget = PodnumaOnKwok.NODE_IP + ":" + podnuma.operator.metricsPort();
            await().atMost(TIMEOUT)
                    .untilAsserted(() -> assertThat(prometheus.activeTargets())
                            .as("the active targets (log: %s)", prometheus.log())
                            .extracting(
                                    t -> t.labels().get("app"),
                                    t -> t.labels().get("instance"),
                                    t -> t.labels().get("node"),
                                    PrometheusApi.Target::health)
                            .containsExactlyInAnyOrder(
                                    Tuple.tuple(AGENT_APP, agentTarget, podnuma.node, TargetHealth.UP),
                                    Tuple.tuple(OPERATOR_APP, operatorTarget, podnuma.node, TargetHealth.UP)));
            assertThat(prometheus.activeTargets())
                    .filteredOn(t -> AGENT_APP.equals(t.labels().get("app")))
                    .singleElement()
                    .satisfies(t -> assertThat(t.labels().get("pod"))
                            .as("the DaemonSet's pod, not one of ours")
                            .startsWith("podnuma-agent-" + podnuma.policy));

            await().atMost(TIMEOUT).untilAsserted(() -> {
                List<PrometheusApi.Sample> series =
                        prometheus.query("count by (app, __name__) ({__name__=~\"podnuma_.+\"})");
                assertThat(series).extracting(s -> s.labels().get("app")).contains(AGENT_APP, OPERATOR_APP);
            });
            assertThat(prometheus.query("podnuma_operator_nodes{app=\"" + OPERATOR_APP + "\", policy=\""
                            + podnuma.policy + "\", state=\"matched\"}"))
                    .singleElement()
                    .satisfies(s -> assertThat(s.value()).isEqualTo(1.0));
            assertThat(prometheus.query("up{job=\"" + JOB + "\"}"))
                    .extracting(PrometheusApi.Sample::value)
                    .containsExactly(1.0, 1.0);

            theDashboardsVariablesListThisInstallAndItsPanelsShowItsSeries(prometheus);
        }
    }

    /**
     * The chart's dashboard on this Prometheus, its queries sent as Grafana sends them: each variable's values (its
     * {@code label_values} query as {@code count by (<label>)} of the same selector) hold this install's job, policy
     * and node, with the variables above it on All and on those values; every panel query returns series with the
     * variables on All and on those values; and the filters bite: a node with no agent empties every query of agent
     * series (the operator's queries, not filtered by node, still answer), a policy that does not exist empties every
     * query.
     */
    private static void theDashboardsVariablesListThisInstallAndItsPanelsShowItsSeries(PrometheusServer prometheus) {
        GrafanaDashboard dashboard = GrafanaDashboard.ofChart();
        Map<String, List<String>> mine =
                Map.of("job", List.of(JOB), "policy", List.of(podnuma.policy), "node", List.of(podnuma.node));
        Map<String, String> all = dashboard.queryVariables().stream()
                .collect(Collectors.toMap(GrafanaDashboard.Variable::name, GrafanaDashboard.Variable::allValue));
        assertThat(all).containsOnlyKeys(mine.keySet());

        for (GrafanaDashboard.Variable v : dashboard.queryVariables()) {
            for (Map<String, String> raw : List.of(all, Map.<String, String>of())) {
                String query = GrafanaDashboard.interpolate(v.asPromQl(), mine, raw, RATE_INTERVAL);
                await().atMost(TIMEOUT)
                        .untilAsserted(() -> assertThat(prometheus.query(query))
                                .as("the values of $%s: %s", v.name(), query)
                                .extracting(s -> s.labels().get(v.name()))
                                .contains(mine.get(v.name()).get(0)));
            }
        }

        List<GrafanaDashboard.Target> targets = dashboard.targets();
        assertThat(targets).hasSizeGreaterThanOrEqualTo(8);
        for (Map<String, String> raw : List.of(all, Map.<String, String>of())) {
            await().atMost(TIMEOUT)
                    .untilAsserted(() -> assertThat(targets).allSatisfy(t -> {
                        String query = GrafanaDashboard.interpolate(t.expr(), mine, raw, RATE_INTERVAL);
                        assertThat(prometheus.query(query))
                                .as("%s as %s", t, query)
                                .isNotEmpty();
                    }));
        }

        Map<String, List<String>> noAgentThere = Map.of(
                "job", List.of(JOB), "policy", List.of(podnuma.policy), "node", List.of(podnuma.node + "-elsewhere"));
        Map<String, List<String>> noPolicy =
                Map.of("job", List.of(JOB), "policy", List.of(podnuma.policy + "-gone"), "node", List.of(podnuma.node));
        assertThat(targets).allSatisfy(t -> {
            boolean operatorOnly = PromQlNames.of(t.expr()).stream().allMatch(n -> n.startsWith("podnuma_operator_"));
            String elsewhere = GrafanaDashboard.interpolate(t.expr(), noAgentThere, Map.of(), RATE_INTERVAL);
            if (operatorOnly) {
                assertThat(prometheus.query(elsewhere)).as(elsewhere).isNotEmpty();
            } else {
                assertThat(prometheus.query(elsewhere)).as(elsewhere).isEmpty();
            }
            String gone = GrafanaDashboard.interpolate(t.expr(), noPolicy, Map.of(), RATE_INTERVAL);
            assertThat(prometheus.query(gone)).as(gone).isEmpty();
        });
    }

    @Test
    void anEndpointSliceCannotPointAtLoopbackWhichIsWhyDiscoveryUsesPods(ControlPlane cp) {
        CommandResult refused = cp.kubectlWithStdin("""
                apiVersion: discovery.k8s.io/v1
                kind: EndpointSlice
                metadata:
                  name: podnuma-agent-loopback
                  namespace: %s
                addressType: IPv4
                endpoints:
                - addresses: [127.0.0.1]
                ports:
                - name: metrics
                  port: 9464
                """.formatted(PodnumaOnKwok.NAMESPACE), "apply", "-f", "-");

        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.stderr()).contains("loopback");
    }
}
