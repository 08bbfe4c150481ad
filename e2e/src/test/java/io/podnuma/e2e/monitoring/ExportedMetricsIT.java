package io.podnuma.e2e.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.grpc.ManagedChannel;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.nri.v1alpha1.PodSandbox;
import io.podnuma.podresources.DomainSocketChannels;
import io.podnuma.podresources.v1.ListPodResourcesRequest;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import io.podnuma.testkit.GeneratedCrds;
import io.podnuma.testkit.Repository;
import io.podnuma.testkit.agent.AgentProcess;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.host.CgroupDriverName;
import io.podnuma.testkit.host.KubeletLikeHost;
import io.podnuma.testkit.nri.HarnessOptions;
import io.podnuma.testkit.nri.NriEventResult;
import io.podnuma.testkit.nri.NriMessages;
import io.podnuma.testkit.nri.NriRuntimeHarness;
import io.podnuma.testkit.operator.OperatorProcess;
import io.podnuma.testkit.prometheus.GrafanaDashboard;
import io.podnuma.testkit.prometheus.PromQlNames;
import io.podnuma.testkit.prometheus.PrometheusText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the chart's alerts, the Grafana dashboard and {@code docs/metrics.md} name exists: a real operator process
 * reconciling a policy for a kwok node and a real agent process on a kubelet-like cgroup host of this machine (not
 * the real node) are scraped, and every metric name of every alert expression (the PrometheusRule as {@code helm
 * template} renders it) and of every dashboard panel is among the samples they export; the docs' tables list
 * exactly the podnuma, process and JVM metrics they export, with their types and labels.
 */
@ExtendWith(ControlPlaneExtension.class)
class ExportedMetricsIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final String NAMESPACE = "podnuma-monitoring-it";
    private static final String POLICY = "monitoring";
    private static final String NODE = "monitoring-0";
    private static final String GROUP_LABEL = "podnuma.it/group";
    /** The families docs/metrics.md lists: podnuma's own and those of the process and its JVM. */
    private static final Pattern DOCUMENTED = Pattern.compile("podnuma_|process_|jvm_");
    /** Series Prometheus makes itself for every target; no component exports them. */
    private static final Set<String> SYNTHETIC = Set.of("up");

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static KubeletLikeHost host;
    private static OperatorProcess operator;
    private static AgentProcess agent;
    private static PrometheusText agentScrape;
    private static PrometheusText operatorScrape;
    private static NriRuntimeHarness nri;

    @BeforeAll
    static void scrapeBoth(ControlPlane plane, @TempDir Path dir) throws Exception {
        Optional<String> why = KubeletLikeHost.unavailableReason();
        Assumptions.assumeTrue(why.isEmpty(), () -> "no kubelet-like cgroup host for the agent: " + why.orElse(""));
        host = KubeletLikeHost.create(CgroupDriverName.CGROUPFS, "monitoring");
        Assumptions.assumeTrue(host.cpus().size() >= 2, "the policy reserves CPU 0 and needs another");

        plane.installCrds(GeneratedCrds.numaResourcePolicies(), GeneratedCrds.numaNodeStates());
        plane.ensureNamespace(NAMESPACE);
        plane.ensureNode(
                NODE,
                Map.of(GROUP_LABEL, POLICY),
                Map.of("cpu", Integer.toString(host.cpus().size()), "memory", "8Gi", "pods", "110"));
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("namespace", NAMESPACE);
        settings.put("agent-image", "podnuma/node-agent:monitoring-it");
        settings.put("leader-election", "false");
        operator = OperatorProcess.start(dir.resolve("operator"), plane.kubeconfig(), settings);
        operator.awaitReady(TIMEOUT);
        NumaResourcePolicySpec sample =
                SampleConfigs.podScopePolicy(SampleConfigs.reservedCpus("0"), AdmissionAction.WARN, false);
        plane.client()
                .resource(new NumaResourcePolicy(POLICY, SampleConfigs.selecting(sample, GROUP_LABEL, POLICY)))
                .serverSideApply();
        await().atMost(TIMEOUT)
                .until(() -> POLICY.equals(plane.client()
                        .nodes()
                        .withName(NODE)
                        .get()
                        .getMetadata()
                        .getLabels()
                        .get("podnuma.io/policy")));

        // The agent is the NRI plugin of the upstream adaptation library, so its NRI series are in the scrape too.
        Optional<String> noGo = NriRuntimeHarness.whyUnavailable();
        Assumptions.assumeTrue(noGo.isEmpty(), () -> "no NRI runtime harness: " + noGo.orElse(""));
        Path nriSocket = dir.resolve("nri/nri.sock");
        nri = NriRuntimeHarness.start(
                NriRuntimeHarness.build(dir.resolve("nri-bin")), nriSocket, HarnessOptions.CONTAINERD_DEFAULTS);
        agent = AgentProcess.prepare(dir.resolve("agent"), plane.kubeconfig());
        agent.configure(SampleConfigs.podScope(NODE, SampleConfigs.reservedCpus("0"))
                .policyName(POLICY)
                .pinning("nri")
                .nriSocket(nriSocket.toString())
                .kubeletCgroupRoot(host.kubeletCgroupRoot())
                .reconcilePeriod("2s")
                .statusMinInterval("200ms")
                .build());
        agent.start();
        agent.awaitReady(TIMEOUT);
        // One PodResources call, so the counter that appears on first use is in the scrape too.
        ManagedChannel channel = DomainSocketChannels.open(agent.socket());
        try {
            PodResourcesListerGrpc.newBlockingStub(channel).list(ListPodResourcesRequest.getDefaultInstance());
        } finally {
            channel.shutdownNow();
        }
        nri.awaitPlugins(1, TIMEOUT);
        PodSandbox sandbox = NriMessages.pod("sandbox-1", NAMESPACE, "p", "6f1c2a3e-0000-4000-8000-000000000001");
        nri.addPod(sandbox);
        assertThat(nri.createContainer(sandbox, NriMessages.container("c".repeat(64), "sandbox-1", "app")))
                .isInstanceOf(NriEventResult.Answered.class);
        // The operator counts the node once the agent's NumaNodeState says it is ready.
        await().atMost(TIMEOUT)
                .ignoreExceptions()
                .untilAsserted(() -> assertThat(PrometheusText.parse(operator.metrics())
                                .value("podnuma_operator_nodes", Map.of("policy", POLICY, "state", "ready")))
                        .isEqualTo(1));
        await().atMost(TIMEOUT)
                .untilAsserted(() -> assertThat(PrometheusText.parse(agent.metrics())
                                .value("podnuma_agent_condition", Map.of("condition", "Ready", "status", "true")))
                        .isEqualTo(1));
        String agentText = agent.metrics();
        String operatorText = operator.metrics();
        // Kept for whoever updates docs/metrics.md or a dashboard: what the two components export now.
        Path kept = Path.of("target", "monitoring");
        Files.createDirectories(kept);
        Files.writeString(kept.resolve("agent.metrics"), agentText);
        Files.writeString(kept.resolve("operator.metrics"), operatorText);
        agentScrape = PrometheusText.parse(agentText);
        operatorScrape = PrometheusText.parse(operatorText);
    }

    @AfterAll
    static void stop(ControlPlane plane) throws Exception {
        if (agent != null) {
            agent.close();
        }
        if (operator != null) {
            operator.close();
        }
        if (host != null) {
            host.close();
        }
        if (nri != null) {
            nri.close();
        }
        plane.kubectl("delete", "node", NODE, "--wait=false", "--ignore-not-found");
    }

    @Test
    void everyMetricTheAlertsUseIsExported(ControlPlane plane) throws IOException {
        String rendered = plane.helm(
                        "template",
                        "monitoring",
                        Repository.resolve("helm/podnuma").toString(),
                        "--namespace",
                        NAMESPACE,
                        "--set",
                        "prometheusRule.enabled=true",
                        "--show-only",
                        "templates/monitoring/prometheusrule.yaml")
                .assertSuccess()
                .stdout();
        Map<String, String> expressions = new TreeMap<>();
        for (JsonNode group : YAML.readTree(rendered).path("spec").path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                expressions.put(rule.path("alert").asText(), rule.path("expr").asText());
            }
        }
        assertThat(expressions).hasSizeGreaterThanOrEqualTo(8);
        assertAllExported(expressions);
    }

    @Test
    void everyMetricTheDashboardUsesIsExported() {
        Map<String, String> expressions = new TreeMap<>();
        for (GrafanaDashboard.Target t : GrafanaDashboard.ofChart().targets()) {
            expressions.put(t.panel() + " " + t.refId(), t.expr());
        }
        assertThat(expressions).hasSizeGreaterThanOrEqualTo(8);
        assertAllExported(expressions);
    }

    @Test
    void theDocsTableListsExactlyThePodnumaMetricsWithTheirTypesAndLabels() throws IOException {
        MetricsTable table = MetricsTable.parse(Files.readString(Repository.resolve("docs/metrics.md")));
        SortedMap<String, MetricsTable.Row> exported = new TreeMap<>();
        for (PrometheusText scrape : List.of(agentScrape, operatorScrape)) {
            SortedMap<String, SortedSet<String>> labels = new TreeMap<>();
            for (PrometheusText.Sample s : scrape.samples()) {
                if (DOCUMENTED.matcher(s.name()).lookingAt()) {
                    SortedSet<String> names = labels.computeIfAbsent(scrape.familyOf(s), f -> new TreeSet<>());
                    s.labels().keySet().stream().filter(l -> !l.equals("le")).forEach(names::add);
                }
            }
            labels.forEach((family, names) -> exported.put(
                    family, new MetricsTable.Row(family, scrape.type(family).orElseThrow(), names)));
        }
        assertThat(exported)
                .containsKeys(
                        "podnuma_operator_nodes",
                        "podnuma_pin_latency_seconds",
                        "process_resident_memory_bytes",
                        "jvm_gc_collection_seconds");

        SortedMap<String, MetricsTable.Row> documented = new TreeMap<>();
        table.rows().forEach(r -> documented.put(r.name(), r));
        assertThat(documented.keySet())
                .as(
                        "docs/metrics.md lists the podnuma, process and JVM metric families the agent and the operator export")
                .containsExactlyElementsOf(exported.keySet());
        assertThat(documented.values()).containsExactlyElementsOf(exported.values());
    }

    /** Every metric name of every expression is a sample name of a scrape (histograms: _bucket, _count, _sum). */
    private static void assertAllExported(Map<String, String> expressions) {
        Set<String> samples = new TreeSet<>(SYNTHETIC);
        for (PrometheusText scrape : List.of(agentScrape, operatorScrape)) {
            scrape.samples().forEach(s -> samples.add(s.name()));
        }
        List<String> missing = new ArrayList<>();
        expressions.forEach((where, expr) -> {
            SortedSet<String> names = PromQlNames.of(expr);
            assertThat(names).as("metric names in %s: %s", where, expr).isNotEmpty();
            names.stream().filter(n -> !samples.contains(n)).forEach(n -> missing.add(where + ": " + n));
        });
        assertThat(missing).as("metrics used but not exported").isEmpty();
    }
}
