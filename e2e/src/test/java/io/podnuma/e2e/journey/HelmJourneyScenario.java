package io.podnuma.e2e.journey;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.PrometheusApi;
import io.podnuma.controlplane.PrometheusServer;
import io.podnuma.operator.render.AgentRender;
import io.podnuma.testkit.Repository;
import io.podnuma.testkit.Waits;
import io.podnuma.testkit.chart.PodnumaChart;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.nodestate.NodeStateReads;
import io.podnuma.testkit.podresources.PodResourcesGoClient;
import io.podnuma.testkit.pods.SamplePods;
import io.podnuma.testkit.prometheus.PrometheusText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user does with podnuma, one scenario for every driver: {@code helm install} the chart; the operator is Ready
 * and one replica leads; label a node and apply the quickstart sample policy; the operator labels the node and its
 * agent pod runs there; a Guaranteed pod with a pod budget and a sidecar, a Burstable pod and a pod too big for its
 * NUMA node are pinned (or not) as the containers themselves report; {@code kubectl get/describe nrp}, the
 * NumaNodeState, the PodResources API through the upstream Go client and Prometheus (Kubernetes service discovery,
 * the chart's alert rules) all say so; {@code helm upgrade} of an agent setting rolls the agents and a policy change
 * rolls them again, with every pin kept and no pod evicted; deleting the policy and {@code helm uninstall} give every
 * container every CPU back and leave nothing of podnuma but its CRDs.
 */
abstract class HelmJourneyScenario {

    static final String POLICY = "quickstart";
    static final String NODE_LABEL = "podnuma.io/pinning";
    private static final Duration WAIT = Duration.ofSeconds(120);
    /** Under the 3 minutes a helm command may take (ControlPlane.helm). */
    private static final Duration HELM = Duration.ofSeconds(Long.getLong("podnuma.journey.helmTimeout", 150));

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @TempDir
    Path workDir;

    protected abstract JourneyDriver driver(Path workDir);

    @Test
    void installPinObserveUpgradeAndUninstall() throws Exception {
        try (JourneyDriver d = driver(workDir)) {
            String reason = d.unavailableReason();
            if (reason != null) {
                System.out.println(getClass().getSimpleName() + " skipped: " + reason);
            }
            Assumptions.assumeTrue(reason == null, () -> reason);
            run(d.controlPlane(), d);
        }
    }

    private void run(ControlPlane cp, JourneyDriver d) throws Exception {
        String node = d.node();
        CpuList host = d.nodeCpus();
        String ns = "journey";
        PodnumaChart chart = new PodnumaChart(cp, workDir.resolve("helm"));
        Map<String, String> timings = new LinkedHashMap<>();
        boolean uninstalled = false;
        try {
            // 1. Install: the operator is Ready and one replica holds the Lease.
            long start = System.nanoTime();
            timings.put("helm install --wait", seconds(chart.install(d.chartValues(), HELM)));
            d.afterHelm(HelmStep.INSTALL);
            String leader = awaitLeader(cp, d.operatorReplicas());

            // 2. The quickstart policy: the node is labelled and its agent runs.
            cp.kubectl("label", "node", node, NODE_LABEL + "=enabled", "--overwrite")
                    .assertSuccess();
            cp.kubectl(
                            "apply",
                            "-f",
                            Repository.resolve("crds/examples/quickstart.yaml").toString())
                    .assertSuccess();
            Waits.await(
                    WAIT,
                    "the node labelled " + AgentRender.POLICY_LABEL + "=" + POLICY,
                    () -> Optional.ofNullable(cp.client()
                                    .nodes()
                                    .withName(node)
                                    .get()
                                    .getMetadata()
                                    .getLabels()
                                    .get(AgentRender.POLICY_LABEL))
                            .filter(POLICY::equals));
            Pod agent = d.awaitAgent(Optional.empty());
            timings.put("install → agent Ready", seconds(Duration.ofNanos(System.nanoTime() - start)));

            // 3. Workload pods, pinned as the containers report it.
            cp.ensureNamespace(ns);
            Map<String, Long> pids = new HashMap<>();
            pids.putAll(prefixed("trader", d.run(ns, SamplePods.budgeted(node, "trader", 1))));
            timings.put("install → first pod pinned", seconds(Duration.ofNanos(System.nanoTime() - start)));
            pids.putAll(prefixed("web", d.run(ns, SamplePods.burstable(node, "web"))));
            Map<?, ?> first = Waits.await(
                    WAIT,
                    "the NumaNodeState to list trader",
                    () -> NodeStateReads.status(cp.client(), node)
                            .filter(s ->
                                    NodeStateReads.allocation(s, ns, "trader").isPresent()));
            CpuList free = cpus(first, "sharedPool").minus(cpus(first, "reservedCpus"));
            pids.putAll(prefixed("trader-2", d.run(ns, SamplePods.budgeted(node, "trader-2", free.size() + 1))));
            String warning = Waits.await(
                    WAIT,
                    "a Warning Event on trader-2",
                    () -> cp.client().v1().events().inNamespace(ns).list().getItems().stream()
                            .filter(e ->
                                    "trader-2".equals(e.getInvolvedObject().getName()) && "Warning".equals(e.getType()))
                            .map(e -> e.getReason() + ": " + e.getMessage())
                            .findFirst());
            assertThat(warning).contains("it runs in the node's shared pool");
            Map<?, ?> state = NodeStateReads.status(cp.client(), node).orElseThrow();
            assertThat(NodeStateReads.allocation(state, ns, "trader-2"))
                    .as("trader-2 refused")
                    .isEmpty();
            CpuList bubble = CpuList.parse(text(
                    NodeStateReads.allocation(state, ns, "trader").orElseThrow().get("cpus")));
            CpuList shared = cpus(state, "sharedPool");
            assertThat(bubble.size()).isEqualTo(1);
            assertThat(shared).isEqualTo(host.minus(bubble));
            Map<String, CpuList> wanted = new TreeMap<>(Map.of(
                    "trader/proxy", bubble,
                    "trader/engine", bubble,
                    "web/web", shared,
                    "trader-2/proxy", shared,
                    "trader-2/engine", shared));
            awaitAffinities(d, ns, pids, wanted, "pinned");

            // 4. What the user reads: kubectl get / describe, the NumaNodeState, PodResources, Prometheus.
            Map<String, String> row = Waits.await(
                    WAIT,
                    () -> "kubectl get nrp to show the node ready and its pod pinned; it shows:\n"
                            + cp.kubectl("get", "nrp", POLICY, "-o", "wide").output()
                            + cp.kubectl("get", "nrp", POLICY, "-o", "jsonpath={.status}")
                                    .output(),
                    () -> Optional.of(columns(cp.kubectl("get", "nrp", POLICY, "-o", "wide")
                                    .assertSuccess()
                                    .stdout()))
                            .filter(c -> "1".equals(c.get("MATCHED"))
                                    && "1".equals(c.get("NODES-READY"))
                                    && "True".equals(c.get("READY"))
                                    && "1".equals(c.get("PINNED"))));
            assertThat(columns(cp.kubectl("get", "nrp").assertSuccess().stdout())
                            .keySet())
                    .as("kubectl get nrp's columns (-o wide adds MEMORY and PINNED)")
                    .containsExactly("NAME", "TOPOLOGY", "SCOPE", "CPU", "MATCHED", "NODES-READY", "READY", "AGE");
            assertThat(row)
                    .containsEntry("NAME", POLICY)
                    .containsEntry("CPU", "static")
                    .containsEntry("TOPOLOGY", "single-numa-node")
                    .containsEntry("SCOPE", "pod");
            String describe =
                    cp.kubectl("describe", "nrp", POLICY).assertSuccess().stdout();
            assertThat(describe)
                    .contains("Name:         " + POLICY)
                    .contains("Observed Generation:")
                    .containsPattern("Type:\\s+Ready\\s")
                    .contains("Events:")
                    .containsPattern("Normal\\s+\\S+");
            String metrics = d.agentMetrics();
            assertThat(metrics).contains("podnuma_cpu_manager_exclusive_cpu_allocation_count");
            assertThat(PrometheusText.sampleValue(metrics, "podnuma_cpu_manager_exclusive_cpu_allocation_count"))
                    .isEqualTo(1.0);
            if (d.runtimeHasNri()) {
                // The chart's default pinning (auto) found the runtime's NRI socket: the pods were born pinned.
                PrometheusText parsed = PrometheusText.parse(metrics);
                assertThat(parsed.sum("podnuma_nri_connected", Map.of())).isEqualTo(1.0);
                assertThat(parsed.sum(
                                "podnuma_nri_requests_total", Map.of("method", "CreateContainer", "result", "pinned")))
                        .as("containers created with their cpuset")
                        .isGreaterThanOrEqualTo(2.0);
            }
            podResources(d, ns, bubble);
            prometheus(cp, d, chart);

            // 5. helm upgrade of an agent setting: the config changes, the DaemonSet rolls, every pin stays.
            String hashBefore = configHash(cp);
            long upgrade = System.nanoTime();
            timings.put(
                    "helm upgrade --wait",
                    seconds(chart.upgrade(d.chartValues(), Map.of("agent", Map.of("reconcilePeriod", "7s")), HELM)));
            d.afterHelm(HelmStep.UPGRADE);
            Waits.await(
                    WAIT,
                    "a new config hash on the agent DaemonSet",
                    () -> Optional.of(configHash(cp)).filter(h -> !h.equals(hashBefore)));
            Pod upgraded = d.awaitAgent(Optional.of(agent.getMetadata().getUid()));
            timings.put("upgrade → new agent Ready", seconds(Duration.ofNanos(System.nanoTime() - upgrade)));
            awaitAffinities(d, ns, pids, wanted, "after the helm upgrade rolled the agent");
            Map<String, String> uids = podUids(cp, ns);

            // 6. A policy change (the CPU manager's reconcile period) without any drain: a new agent, the same pods and
            // pins.
            String hashUpgraded = configHash(cp);
            cp.kubectl(
                            "patch",
                            "nrp",
                            POLICY,
                            "--type=merge",
                            "-p",
                            "{\"spec\":{\"cpuManager\":{\"reconcilePeriod\":\"5s\"}}}")
                    .assertSuccess();
            Waits.await(
                    WAIT,
                    "the policy change rolled out",
                    () -> Optional.of(configHash(cp)).filter(h -> !h.equals(hashUpgraded)));
            d.awaitAgent(Optional.of(upgraded.getMetadata().getUid()));
            awaitAffinities(d, ns, pids, wanted, "after the policy changed");
            assertThat(podUids(cp, ns)).as("no pod was evicted or recreated").isEqualTo(uids);
            assertThat(restarts(cp, ns)).as("no container restarted").isZero();

            // 7. Delete the policy, uninstall: every container back on every CPU, nothing of podnuma left but CRDs.
            long teardown = System.nanoTime();
            cp.kubectl("delete", "nrp", POLICY, "--wait=true", "--timeout=120s").assertSuccess();
            Map<String, CpuList> everything = new TreeMap<>();
            wanted.keySet().forEach(k -> everything.put(k, host));
            awaitAffinities(d, ns, pids, everything, "after the policy was deleted");
            timings.put("helm uninstall --wait", seconds(chart.uninstall(HELM)));
            uninstalled = true;
            d.afterHelm(HelmStep.UNINSTALL);
            cp.kubectl("delete", "namespace", PodnumaChart.NAMESPACE, "--wait=true", "--timeout=120s")
                    .assertSuccess();
            timings.put("delete policy → uninstalled", seconds(Duration.ofNanos(System.nanoTime() - teardown)));
            assertNothingLeft(cp, d, node);
            System.out.printf(
                    "[%s] leader %s; bubble %s (trader), shared %s; timings: %s%n",
                    getClass().getSimpleName(), leader, bubble, shared, timings);
        } catch (Exception | AssertionError e) {
            System.err.println(
                    "[" + getClass().getSimpleName() + "] failed; the cluster at that point:\n" + chart.clusterState());
            throw e;
        } finally {
            cp.kubectl("delete", "namespace", ns, "--wait=false", "--ignore-not-found");
            cp.kubectl("label", "node", node, NODE_LABEL + "-");
            if (!uninstalled) {
                cp.kubectl("delete", "nrp", POLICY, "--ignore-not-found", "--wait=true", "--timeout=60s");
                chart.helm("uninstall", PodnumaChart.RELEASE, "-n", PodnumaChart.NAMESPACE, "--wait", "--timeout=120s");
            }
        }
    }

    private static String awaitLeader(ControlPlane cp, int replicas) throws InterruptedException {
        if (replicas == 0) {
            return "(none: the driver runs the operator)";
        }
        Waits.await(
                WAIT,
                "the operator Deployment available",
                () -> Optional.ofNullable(cp.client()
                                .apps()
                                .deployments()
                                .inNamespace(PodnumaChart.NAMESPACE)
                                .withName(PodnumaChart.OPERATOR)
                                .get())
                        .filter(dep -> dep.getStatus() != null
                                && Integer.valueOf(replicas)
                                        .equals(dep.getStatus().getReadyReplicas())));
        String holder = Waits.await(
                WAIT,
                "a leader on the operator's Lease",
                () -> Optional.ofNullable(cp.client()
                                .leases()
                                .inNamespace(PodnumaChart.NAMESPACE)
                                .withName(PodnumaChart.OPERATOR)
                                .get())
                        .map(Lease::getSpec)
                        .map(s -> s.getHolderIdentity())
                        .filter(h -> !h.isBlank()));
        List<String> pods = cp
                .client()
                .pods()
                .inNamespace(PodnumaChart.NAMESPACE)
                .withLabel("app.kubernetes.io/component", "operator")
                .list()
                .getItems()
                .stream()
                .map(p -> p.getMetadata().getName())
                .toList();
        assertThat(pods).hasSize(replicas);
        assertThat(pods)
                .as("the Lease holder %s is one of the operator pods", holder)
                .anyMatch(holder::startsWith);
        return holder;
    }

    /** The upstream Go client on the node's socket sees the pod-level CPUs of trader. */
    private void podResources(JourneyDriver d, String ns, CpuList bubble) throws Exception {
        Optional<String> why = PodResourcesGoClient.whyUnavailable();
        if (why.isPresent()) {
            System.out.println(getClass().getSimpleName() + ": PodResources step skipped: " + why.get());
            return;
        }
        PodResourcesGoClient client = PodResourcesGoClient.build(workDir.resolve("podresclient"));
        Map<String, String> answers = client.query(d.podResourcesSocket(), ns, "trader");
        Map<?, ?> got = YAML.readValue(answers.get("Get"), Map.class);
        Map<?, ?> pod = (Map<?, ?>) got.get("podResources");
        assertThat(pod.get("name")).isEqualTo("trader");
        assertThat(((List<?>) pod.get("cpuIds"))
                        .stream().map(o -> Integer.parseInt(o.toString())).toList())
                .as("pod-level cpu_ids")
                .containsExactlyElementsOf(bubble.ids());
        assertThat(answers.get("List")).contains("\"web\"");
    }

    /** A real Prometheus finds both components by Kubernetes service discovery; the chart's rules evaluate. */
    private void prometheus(ControlPlane cp, JourneyDriver d, PodnumaChart chart) throws Exception {
        String rendered = chart.template(
                Map.of("prometheusRule", Map.of("enabled", true)),
                "--show-only",
                "templates/monitoring/prometheusrule.yaml");
        Map<?, ?> rule = YAML.readValue(rendered, Map.class);
        Path rules = workDir.resolve("prometheus-rules.yaml");
        YAML.writeValue(rules.toFile(), rule.get("spec"));
        String config = """
                global:
                  scrape_interval: 2s
                  evaluation_interval: 2s
                rule_files:
                  - %s
                scrape_configs:
                %s
                """.formatted(rules, d.scrapeConfigs(cp.kubeconfig()).indent(2));
        try (PrometheusServer prometheus = PrometheusServer.start(cp, workDir.resolve("prometheus"), config)) {
            List<PrometheusApi.Target> targets = Waits.await(
                    WAIT,
                    "the operator and agent targets up",
                    () -> Optional.of(prometheus.activeTargets())
                            .filter(ts -> ts.stream()
                                            .filter(t -> t.health() == PrometheusApi.TargetHealth.UP)
                                            .count()
                                    >= d.operatorReplicas() + 1));
            Waits.await(
                    WAIT,
                    "podnuma series of the agent and the operator",
                    () -> Optional.of(prometheus.query("count by (job) ({__name__=~\"podnuma_.+\"})"))
                            .filter(s -> s.size() >= 2));
            List<PrometheusApi.RuleGroup> groups = Waits.await(
                    WAIT,
                    "the chart's rules evaluated",
                    () -> Optional.of(prometheus.ruleGroups())
                            .filter(gs -> !gs.isEmpty()
                                    && gs.stream()
                                            .flatMap(g -> g.rules().stream())
                                            .allMatch(r -> r.health() == PrometheusApi.RuleHealth.OK)));
            List<String> firing = prometheus.alerts().stream()
                    .filter(a -> a.state() == PrometheusApi.AlertState.FIRING)
                    .map(PrometheusApi.Alert::name)
                    .toList();
            assertThat(firing).as("alerts firing on a healthy install").isEmpty();
            System.out.printf(
                    "[%s] Prometheus: %d targets (%s), %d rules evaluated, none firing%n",
                    getClass().getSimpleName(),
                    targets.size(),
                    targets.stream().map(PrometheusApi.Target::scrapeUrl).collect(Collectors.joining(", ")),
                    groups.stream().mapToInt(g -> g.rules().size()).sum());
        }
    }

    private static void assertNothingLeft(ControlPlane cp, JourneyDriver d, String node) throws Exception {
        assertThat(cp.client().nodes().withName(node).get().getMetadata().getLabels())
                .doesNotContainKey(AgentRender.POLICY_LABEL);
        assertThat(NodeStateReads.status(cp.client(), node)).as("NumaNodeState").isEmpty();
        assertThat(cp.client().namespaces().withName(PodnumaChart.NAMESPACE).get())
                .isNull();
        String clusterScoped = cp.kubectl(
                        "get",
                        "clusterroles,clusterrolebindings,validatingadmissionpolicies,validatingadmissionpolicybindings",
                        "-o",
                        "name")
                .assertSuccess()
                .stdout();
        assertThat(clusterScoped.lines().filter(l -> l.contains("podnuma")).toList())
                .as("cluster-scoped podnuma objects after uninstall")
                .isEmpty();
        assertThat(cp.kubectl("get", "crd", "-o", "name").assertSuccess().stdout())
                .as("CRDs stay, as Helm documents")
                .contains("numaresourcepolicies.podnuma.io", "numanodestates.podnuma.io");
        Path state = d.agentStateDir();
        try (var files = Files.exists(state) ? Files.walk(state) : java.util.stream.Stream.<Path>empty()) {
            assertThat(files.filter(Files::isRegularFile).toList())
                    .as("files the agent left in %s", state)
                    .isEmpty();
        }
        assertThat(d.podResourcesSocket()).doesNotExist();
    }

    /** {@code kubectl get}'s one row by column header (no value there has a space). */
    private static Map<String, String> columns(String table) {
        List<String> lines = table.lines().toList();
        String[] header = lines.get(0).trim().split("\\s+");
        String[] values = lines.get(1).trim().split("\\s+");
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 0; i < header.length && i < values.length; i++) {
            row.put(header[i], values[i]);
        }
        return row;
    }

    private static String configHash(ControlPlane cp) {
        DaemonSet ds = cp.client()
                .apps()
                .daemonSets()
                .inNamespace(PodnumaChart.NAMESPACE)
                .withName(AgentRender.objectName(POLICY))
                .get();
        return ds == null
                ? ""
                : ds.getSpec().getTemplate().getMetadata().getAnnotations().get(AgentRender.CONFIG_HASH_ANNOTATION);
    }

    private static Map<String, String> podUids(ControlPlane cp, String ns) {
        return cp.client().pods().inNamespace(ns).list().getItems().stream()
                .collect(Collectors.toMap(
                        p -> p.getMetadata().getName(), p -> p.getMetadata().getUid(), (a, b) -> a, TreeMap::new));
    }

    private static int restarts(ControlPlane cp, String ns) {
        return cp.client().pods().inNamespace(ns).list().getItems().stream()
                .flatMap(p -> p.getStatus().getContainerStatuses().stream())
                .mapToInt(s -> s.getRestartCount() == null ? 0 : s.getRestartCount())
                .sum();
    }

    private static void awaitAffinities(
            JourneyDriver d, String ns, Map<String, Long> pids, Map<String, CpuList> wanted, String when)
            throws Exception {
        assertThat(pids.keySet()).containsExactlyInAnyOrderElementsOf(wanted.keySet());
        long deadline = System.nanoTime() + WAIT.toNanos();
        Map<String, CpuList> seen = new TreeMap<>();
        while (true) {
            seen.clear();
            for (Map.Entry<String, CpuList> w : wanted.entrySet()) {
                String[] pc = w.getKey().split("/");
                seen.put(w.getKey(), d.affinity(ns, pc[0], pc[1], pids.get(w.getKey())));
            }
            if (seen.equals(wanted) || System.nanoTime() > deadline) {
                break;
            }
            TimeUnit.MILLISECONDS.sleep(250);
        }
        assertThat(seen).as("each container's CPUs %s", when).isEqualTo(wanted);
    }

    private static Map<String, Long> prefixed(String pod, Map<String, Long> byContainer) {
        Map<String, Long> out = new HashMap<>();
        byContainer.forEach((c, pid) -> out.put(pod + "/" + c, pid));
        return out;
    }

    private static CpuList cpus(Map<?, ?> status, String field) {
        return CpuList.parse(text(status.get(field)));
    }

    private static String text(Object o) {
        return o == null ? "" : o.toString();
    }

    private static String seconds(Duration d) {
        return String.format("%.1f s", d.toMillis() / 1000.0);
    }
}
