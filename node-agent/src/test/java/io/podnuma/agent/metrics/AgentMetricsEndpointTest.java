package io.podnuma.agent.metrics;

import static io.podnuma.agent.engine.pod.TestPods.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.podnuma.agent.engine.cpu.ReservedCpus;
import io.podnuma.agent.engine.cpu.StaticPolicyOptions;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.memory.MemoryQuantity;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.memory.ReservedMemory;
import io.podnuma.agent.engine.node.AdmissionResult;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.topology.TopologyManagerOptions;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import io.podnuma.agent.health.Readiness;
import io.podnuma.agent.http.HttpEndpoint;
import io.podnuma.agent.report.ConditionBook;
import io.podnuma.agent.report.ConditionReason;
import io.podnuma.agent.sysfs.FakeMachine;
import io.podnuma.agent.sysfs.Fixtures;
import io.podnuma.testkit.prometheus.PrometheusText;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The agent's metrics and probes over real HTTP on an ephemeral port, with node states built by the engine on the
 * 2-socket Intel fixture (128 CPUs, NUMA nodes 0 and 1, CPUs 0 and 64 reserved).
 */
class AgentMetricsEndpointTest {

    private static final CpuTopology INTEL = Fixtures.topology(FakeMachine.INTEL_2S_HT);
    private static final NodeConfig POD_SCOPE_STATIC_MEMORY = new NodeConfig(
            NodeConfig.CpuPolicy.STATIC,
            ReservedCpus.explicit(CpuSet.parse("0,64")),
            StaticPolicyOptions.NONE,
            NodeConfig.MemoryPolicy.STATIC,
            new ReservedMemory(Map.of(
                    0, Map.of(MemoryResource.MEMORY, MemoryQuantity.parseBytes("1Gi")),
                    1, Map.of(MemoryResource.MEMORY, MemoryQuantity.parseBytes("1Gi")))),
            TopologyPolicyName.SINGLE_NUMA_NODE,
            NodeConfig.TopologyScope.POD,
            TopologyManagerOptions.defaults(),
            true);

    private final NodeAllocator allocator = NodeAllocator.create(INTEL, POD_SCOPE_STATIC_MEMORY);
    private final HttpClient client = HttpClient.newHttpClient();
    private AgentMetrics metrics;
    private Readiness readiness;
    private HttpEndpoint endpoint;

    @BeforeEach
    void start() {
        metrics = new AgentMetrics(INTEL);
        readiness = new Readiness();
        endpoint = HttpEndpoint.start(
                "127.0.0.1",
                0,
                Map.of("/metrics", metrics.route(), "/healthz", readiness.healthz(), "/readyz", readiness.readyz()));
    }

    @AfterEach
    void stop() {
        endpoint.close();
        client.close();
    }

    /** A pod-level pod (bubble of 8: sidecar a 1 CPU, app m 6 CPUs, b and i on the pod pool) and a classic pod. */
    private NodeState twoPods() {
        NodeState s = admit(
                allocator.initialState(),
                pod("worked")
                        .budget("8", "16Gi")
                        .sidecar("a", "1", "1Gi")
                        .sidecar("b", null, null)
                        .init("i", null, null)
                        .app("m", "6", "8Gi")
                        .build());
        return admit(s, pod("classic").app("c", "4", "4Gi").build());
    }

    private NodeState admit(NodeState s, Pod p) {
        AdmissionResult r = allocator.admit(s, p);
        assertThat(r).as("%s", r).isInstanceOf(AdmissionResult.Admitted.class);
        return ((AdmissionResult.Admitted) r).state();
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoint.port() + path))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private PrometheusText scrape() throws IOException, InterruptedException {
        HttpResponse<String> r = get("/metrics");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).contains("text/plain; version=0.0.4; charset=utf-8");
        return PrometheusText.parse(r.body());
    }

    @Test
    void everyMetricIsExportedUnderItsKubeletNameWithItsType() throws Exception {
        PrometheusText t = scrape();

        Map<String, String> expected = Map.ofEntries(
                Map.entry("podnuma_cpu_manager_pinning_requests_total", "counter"),
                Map.entry("podnuma_cpu_manager_pinning_errors_total", "counter"),
                Map.entry("podnuma_cpu_manager_shared_pool_size_millicores", "gauge"),
                Map.entry("podnuma_cpu_manager_exclusive_cpu_allocation_count", "gauge"),
                Map.entry("podnuma_cpu_manager_allocation_per_numa", "gauge"),
                Map.entry("podnuma_memory_manager_pinning_requests_total", "counter"),
                Map.entry("podnuma_memory_manager_pinning_errors_total", "counter"),
                Map.entry("podnuma_topology_manager_admission_requests_total", "counter"),
                Map.entry("podnuma_topology_manager_admission_errors_total", "counter"),
                Map.entry("podnuma_topology_manager_admission_duration_ms", "histogram"),
                // Counters in the kubelet; gauges here, since the client library would rename them to *_total.
                Map.entry("podnuma_container_aligned_compute_resources_count", "gauge"),
                Map.entry("podnuma_resource_manager_container_assignments", "gauge"),
                Map.entry("podnuma_resource_manager_allocations_total", "counter"),
                Map.entry("podnuma_resource_manager_allocation_errors_total", "counter"),
                Map.entry("podnuma_pin_latency_seconds", "histogram"),
                Map.entry("podnuma_shared_pool_propagation_seconds", "histogram"),
                Map.entry("podnuma_drift_detected_total", "counter"),
                Map.entry("podnuma_drift_repaired_total", "counter"),
                Map.entry("podnuma_reconcile_passes_total", "counter"),
                Map.entry("podnuma_checkpoint_writes_total", "counter"),
                Map.entry("podnuma_checkpoint_write_errors_total", "counter"),
                Map.entry("podnuma_cgroup_write_errors_total", "counter"),
                Map.entry("podnuma_agent_condition", "gauge"));
        expected.forEach((name, type) -> assertThat(t.type(name)).as(name).contains(type));
        metrics.podResourcesRequest("List", "OK");
        assertThat(scrape().type("podnuma_podresources_requests_total")).contains("counter");

        assertThat(t.types().keySet())
                .as("no name picked up a unit or _total twice")
                .noneMatch(n -> n.endsWith("_total_total") || n.endsWith("_count_total") || n.endsWith("_ms_seconds"));
        assertThat(t.value("podnuma_cpu_manager_allocation_per_numa", Map.of("numa_node", "0")))
                .as("per-NUMA series exist at zero before any allocation")
                .isZero();
        assertThat(t.value("podnuma_cpu_manager_allocation_per_numa", Map.of("numa_node", "1")))
                .isZero();
    }

    @Test
    void observeMirrorsTheEngineState() throws Exception {
        NodeState state = twoPods();
        metrics.observe(state);
        PrometheusText t = scrape();

        // 8 CPUs of bubble and 4 for the classic app leave 116 of the 128 online CPUs in the node pool.
        assertThat(state.sharedPool().size()).isEqualTo(116);
        assertThat(t.value("podnuma_cpu_manager_shared_pool_size_millicores")).isEqualTo(116_000);
        assertThat(t.value("podnuma_cpu_manager_exclusive_cpu_allocation_count"))
                .isEqualTo(12);

        PodAssignment worked = state.pod("uid-worked").orElseThrow();
        PodAssignment classic = state.pod("uid-classic").orElseThrow();
        int[] perNode = new int[2];
        worked.bubble()
                .union(classic.exclusiveCpus())
                .forEach(cpu -> perNode[INTEL.info(cpu).numaNode()]++);
        assertThat(perNode[0] + perNode[1]).isEqualTo(12);
        assertThat(t.value("podnuma_cpu_manager_allocation_per_numa", Map.of("numa_node", "0")))
                .isEqualTo(perNode[0]);
        assertThat(t.value("podnuma_cpu_manager_allocation_per_numa", Map.of("numa_node", "1")))
                .isEqualTo(perNode[1]);

        // CPU: a and m are slices of the bubble, b and i run on the pod pool, c has CPUs from the node.
        assertThat(assignments(t, "node_exclusive", "cpu")).isEqualTo(1);
        assertThat(assignments(t, "pod_exclusive", "cpu")).isEqualTo(2);
        assertThat(assignments(t, "pod_shared", "cpu")).isEqualTo(2);
        // Memory: a and m own blocks inside the pod budget, b and i share it, c owns blocks from the node.
        assertThat(assignments(t, "node_exclusive", "memory")).isEqualTo(1);
        assertThat(assignments(t, "pod_exclusive", "memory")).isEqualTo(2);
        assertThat(assignments(t, "pod_shared", "memory")).isEqualTo(2);

        // The gauges follow the state down again when a pod leaves.
        metrics.observe(allocator.remove(state, "uid-worked"));
        PrometheusText after = scrape();
        assertThat(after.value("podnuma_cpu_manager_exclusive_cpu_allocation_count"))
                .isEqualTo(4);
        assertThat(after.value("podnuma_cpu_manager_shared_pool_size_millicores"))
                .isEqualTo(124_000);
        assertThat(assignments(after, "pod_exclusive", "cpu")).isZero();
        assertThat(assignments(after, "pod_shared", "memory")).isZero();
        assertThat(assignments(after, "node_exclusive", "cpu")).isEqualTo(1);
    }

    private static double assignments(PrometheusText t, String type, String resource) {
        return t.value(
                "podnuma_resource_manager_container_assignments",
                Map.of("assignment_type", type, "resource_name", resource));
    }

    @Test
    void intentionMethodsCountWhatHappened() throws Exception {
        metrics.cpuPinning(true);
        metrics.cpuPinning(true);
        metrics.cpuPinning(false);
        metrics.memoryPinning(false);
        metrics.alignedCompute(AlignmentScope.POD, AlignmentBoundary.NUMA_NODE);
        metrics.alignedCompute(AlignmentScope.POD, AlignmentBoundary.NUMA_NODE);
        metrics.alignedCompute(AlignmentScope.CONTAINER, AlignmentBoundary.PHYSICAL_CPU);
        metrics.resourceAllocated("cpu", AllocationSource.POD);
        metrics.resourceAllocated("hugepages-2Mi", AllocationSource.NODE);
        metrics.resourceAllocationFailed(AllocationSource.NODE);
        metrics.driftDetected();
        metrics.driftDetected();
        metrics.driftRepaired();
        metrics.checkpointWritten();
        metrics.checkpointWriteFailed();
        metrics.cgroupWriteFailed();
        metrics.podResourcesRequest("GetAllocatableResources", "OK");
        metrics.podResourcesRequest("GetAllocatableResources", "OK");
        metrics.podResourcesRequest("Get", "NOT_FOUND");
        PrometheusText t = scrape();

        assertThat(t.value("podnuma_cpu_manager_pinning_requests_total")).isEqualTo(3);
        assertThat(t.value("podnuma_cpu_manager_pinning_errors_total")).isEqualTo(1);
        assertThat(t.value("podnuma_memory_manager_pinning_requests_total")).isEqualTo(1);
        assertThat(t.value("podnuma_memory_manager_pinning_errors_total")).isEqualTo(1);
        assertThat(t.value(
                        "podnuma_container_aligned_compute_resources_count",
                        Map.of("scope", "pod", "boundary", "numa_node")))
                .isEqualTo(2);
        assertThat(t.value(
                        "podnuma_container_aligned_compute_resources_count",
                        Map.of("scope", "container", "boundary", "physical_cpu")))
                .isEqualTo(1);
        assertThat(t.value(
                        "podnuma_container_aligned_compute_resources_count",
                        Map.of("scope", "container", "boundary", "numa_node")))
                .isZero();
        assertThat(t.value(
                        "podnuma_resource_manager_allocations_total", Map.of("resource_name", "cpu", "source", "pod")))
                .isEqualTo(1);
        assertThat(t.value(
                        "podnuma_resource_manager_allocations_total",
                        Map.of("resource_name", "hugepages-2Mi", "source", "node")))
                .isEqualTo(1);
        assertThat(t.value(
                        "podnuma_resource_manager_allocations_total",
                        Map.of("resource_name", "memory", "source", "node")))
                .isZero();
        assertThat(t.value("podnuma_resource_manager_allocation_errors_total", Map.of("source", "node")))
                .isEqualTo(1);
        assertThat(t.value("podnuma_resource_manager_allocation_errors_total", Map.of("source", "pod")))
                .isZero();
        assertThat(t.value("podnuma_drift_detected_total")).isEqualTo(2);
        assertThat(t.value("podnuma_drift_repaired_total")).isEqualTo(1);
        assertThat(t.value("podnuma_checkpoint_writes_total")).isEqualTo(1);
        assertThat(t.value("podnuma_checkpoint_write_errors_total")).isEqualTo(1);
        assertThat(t.value("podnuma_cgroup_write_errors_total")).isEqualTo(1);
        assertThat(t.value(
                        "podnuma_podresources_requests_total",
                        Map.of("method", "GetAllocatableResources", "code", "OK")))
                .isEqualTo(2);
        assertThat(t.value("podnuma_podresources_requests_total", Map.of("method", "Get", "code", "NOT_FOUND")))
                .isEqualTo(1);
    }

    @Test
    void histogramsCountLatenciesIntoTheirBuckets() throws Exception {
        metrics.topologyAdmission(Duration.ofNanos(30_000), true); // 0.03 ms: first bucket (0.05)
        metrics.topologyAdmission(Duration.ofNanos(70_000), true); // 0.07 ms: bucket 0.1
        metrics.topologyAdmission(Duration.ofMillis(1), false); // 1 ms: bucket 1.6
        metrics.topologyAdmission(Duration.ofSeconds(2), false); // above the last bucket (819.2 ms)
        metrics.pinLatency(Duration.ofNanos(100_000)); // exactly the first bound: 100 µs
        metrics.pinLatency(Duration.ofNanos(300_000));
        metrics.pinLatency(Duration.ofMillis(20));
        metrics.pinLatency(Duration.ofSeconds(30));
        metrics.sharedPoolPropagated(Duration.ofMillis(3)); // 3 ms: bucket 0.005
        metrics.sharedPoolPropagated(Duration.ofMillis(100)); // exactly the budget's bound
        metrics.sharedPoolPropagated(Duration.ofMillis(120));
        PrometheusText t = scrape();

        String adm = "podnuma_topology_manager_admission_duration_ms";
        assertThat(t.value("podnuma_topology_manager_admission_requests_total")).isEqualTo(4);
        assertThat(t.value("podnuma_topology_manager_admission_errors_total")).isEqualTo(2);
        assertThat(t.samples().stream().filter(s -> s.name().equals(adm + "_bucket")))
                .as("the kubelet's 15 buckets and +Inf")
                .hasSize(16);
        assertThat(t.value(adm + "_bucket", Map.of("le", "0.05"))).isEqualTo(1);
        assertThat(t.value(adm + "_bucket", Map.of("le", "0.1"))).isEqualTo(2);
        assertThat(t.value(adm + "_bucket", Map.of("le", "0.8"))).isEqualTo(2);
        assertThat(t.value(adm + "_bucket", Map.of("le", "1.6"))).isEqualTo(3);
        assertThat(t.value(adm + "_bucket", Map.of("le", "819.2"))).isEqualTo(3);
        assertThat(t.value(adm + "_bucket", Map.of("le", "+Inf"))).isEqualTo(4);
        assertThat(t.value(adm + "_count")).isEqualTo(4);
        assertThat(t.value(adm + "_sum")).isCloseTo(2001.1, within(1e-9));

        String pin = "podnuma_pin_latency_seconds";
        assertThat(t.value(pin + "_bucket", Map.of("le", "1.0E-4"))).isEqualTo(1);
        assertThat(t.value(pin + "_bucket", Map.of("le", "2.5E-4"))).isEqualTo(1);
        assertThat(t.value(pin + "_bucket", Map.of("le", "5.0E-4"))).isEqualTo(2);
        assertThat(t.value(pin + "_bucket", Map.of("le", "0.025"))).isEqualTo(3);
        assertThat(t.value(pin + "_bucket", Map.of("le", "10.0"))).isEqualTo(3);
        assertThat(t.value(pin + "_bucket", Map.of("le", "+Inf"))).isEqualTo(4);
        assertThat(t.value(pin + "_count")).isEqualTo(4);
        assertThat(t.value(pin + "_sum")).isCloseTo(30.0204, within(1e-9));

        String pool = "podnuma_shared_pool_propagation_seconds";
        assertThat(t.value(pool + "_bucket", Map.of("le", "0.0025"))).isZero();
        assertThat(t.value(pool + "_bucket", Map.of("le", "0.005"))).isEqualTo(1);
        assertThat(t.value(pool + "_bucket", Map.of("le", "0.1"))).isEqualTo(2);
        assertThat(t.value(pool + "_bucket", Map.of("le", "0.25"))).isEqualTo(3);
        assertThat(t.value(pool + "_count")).isEqualTo(3);
        assertThat(t.value(pool + "_sum")).isCloseTo(0.223, within(1e-9));
    }

    @Test
    void conditionsAreOneForTheStatusTheyHaveAndZeroOtherwise() throws Exception {
        Instant now = Instant.parse("2026-12-01T10:00:00Z");
        PrometheusText before = scrape();
        for (String type : List.of("Ready", "Degraded", "Drift", "KubeletConflict")) {
            for (String status : List.of("true", "false", "unknown")) {
                assertThat(condition(before, type, status))
                        .as("%s %s before any condition", type, status)
                        .isZero();
            }
        }

        metrics.conditions(ConditionBook.empty()
                .with(ConditionReason.SYNCED, "synced", now)
                .with(ConditionReason.KUBELET_MANAGER_ACTIVE, "cpuManagerPolicy is static", now));
        PrometheusText conflict = scrape();
        assertThat(condition(conflict, "Ready", "true")).isEqualTo(1);
        assertThat(condition(conflict, "Ready", "false")).isZero();
        assertThat(condition(conflict, "KubeletConflict", "true")).isEqualTo(1);
        assertThat(condition(conflict, "KubeletConflict", "unknown")).isZero();
        assertThat(condition(conflict, "Drift", "true"))
                .as("a condition not stated")
                .isZero();
        assertThat(condition(conflict, "Drift", "false")).isZero();

        metrics.conditions(ConditionBook.empty()
                .with(ConditionReason.SYNCED, "synced", now)
                .with(ConditionReason.KUBELET_FILE_UNREADABLE, "cannot read", now));
        PrometheusText unreadable = scrape();
        assertThat(condition(unreadable, "KubeletConflict", "true")).isZero();
        assertThat(condition(unreadable, "KubeletConflict", "unknown")).isEqualTo(1);
    }

    private static double condition(PrometheusText t, String type, String status) {
        return t.value("podnuma_agent_condition", Map.of("condition", type, "status", status));
    }

    @Test
    void labelsNeverCarryPodsOrContainers() throws Exception {
        NodeState state = twoPods();
        metrics.observe(state);
        metrics.cpuPinning(true);
        metrics.topologyAdmission(Duration.ofMillis(1), true);
        metrics.pinLatency(Duration.ofMillis(1));
        metrics.sharedPoolPropagated(Duration.ofMillis(1));
        metrics.resourceAllocated("memory", AllocationSource.POD);
        metrics.podResourcesRequest("List", "OK");
        metrics.alignedCompute(AlignmentScope.CONTAINER, AlignmentBoundary.UNCORE_CACHE);
        PrometheusText t = scrape();

        Set<String> allowed = Set.of(
                "numa_node",
                "scope",
                "boundary",
                "resource_name",
                "source",
                "assignment_type",
                "method",
                "code",
                "le",
                "condition",
                "status",
                "result");
        Set<String> identities = new HashSet<>();
        for (PodAssignment p : state.pods().values()) {
            identities.add(p.ref().uid());
            identities.add(p.ref().name());
            p.containers().stream().map(ContainerAssignment::name).forEach(identities::add);
        }
        // The process's and the JVM's series: labelled by memory area, pool, collector and thread state, all fixed
        // by the JVM.
        Set<String> allowedJvm = Set.of("area", "pool", "gc", "state");
        int podnumaSamples = 0;
        int jvmSamples = 0;
        assertThat(t.samples()).isNotEmpty();
        for (PrometheusText.Sample s : t.samples()) {
            t.familyOf(s);
            assertThat(s.labels().values()).as("label values of %s", s).doesNotContainAnyElementsOf(identities);
            if (s.name().startsWith(AgentMetrics.PREFIX)) {
                podnumaSamples++;
                assertThat(allowed)
                        .as("label names of %s", s)
                        .containsAll(s.labels().keySet());
            } else {
                jvmSamples++;
                assertThat(s.name()).matches("(process|jvm)_[a-z_]+");
                assertThat(allowedJvm)
                        .as("label names of %s", s)
                        .containsAll(s.labels().keySet());
            }
        }
        // A bounded number of series: 2 NUMA nodes, fixed label sets, one series per label set used; the JVM's
        // (its memory pools, its collectors, 7 thread states) whatever the workload.
        assertThat(podnumaSamples).isLessThan(150);
        assertThat(jvmSamples).isBetween(1, 120);
    }

    @Test
    void labelValuesOutsideTheirFixedSetsAreRefused() {
        assertThatThrownBy(() -> metrics.resourceAllocated("uid-1234", AllocationSource.NODE))
                .hasMessage("resource_name \"uid-1234\" is not a metric label: allowed cpu, memory or"
                        + " hugepages-<size> such as hugepages-2Mi");
        assertThatThrownBy(() -> metrics.podResourcesRequest("Watch", "OK"))
                .hasMessage("podresources method \"Watch\" is not a metric label: allowed Get,"
                        + " GetAllocatableResources, List");
        assertThatThrownBy(() -> metrics.podResourcesRequest("List", "pod-abc"))
                .hasMessageStartingWith("gRPC code \"pod-abc\" is not a metric label");
        assertThatThrownBy(() -> metrics.pinLatency(Duration.ofMillis(-1)))
                .hasMessage("pin latency PT-0.001S is negative: allowed zero or more");
    }

    @Test
    void readyOnlyAfterMarkReadyAndAliveThroughout() throws Exception {
        HttpResponse<String> before = get("/readyz");
        assertThat(before.statusCode()).isEqualTo(503);
        assertThat(before.body()).contains("first full sync");
        assertThat(get("/healthz").statusCode()).isEqualTo(200);

        readiness.markReady();

        HttpResponse<String> after = get("/readyz");
        assertThat(after.statusCode()).isEqualTo(200);
        assertThat(after.body()).isEqualTo("ready\n");
        assertThat(get("/healthz").body()).isEqualTo("ok\n");
    }

    @Test
    void unknownPathsAreNotFoundAndOnlyGetIsAllowed() throws Exception {
        for (String path : new String[] {"/", "/metricsx", "/metrics/", "/healthz/x", "/nope"}) {
            HttpResponse<String> r = get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(404);
            assertThat(r.body()).as(path).startsWith("not found: " + path);
        }
        HttpResponse<String> post = client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoint.port() + "/metrics"))
                        .POST(HttpRequest.BodyPublishers.ofString("x"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).contains("GET, HEAD");
    }

    @Test
    void closeReleasesThePort() throws Exception {
        int port = endpoint.port();
        endpoint.close();
        assertThatThrownBy(() -> get("/healthz")).isInstanceOf(IOException.class);
        // The same port can be bound again right away: nothing is left listening on it.
        try (HttpEndpoint again = HttpEndpoint.start("127.0.0.1", port, Map.of("/healthz", readiness.healthz()))) {
            assertThat(get("/healthz").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void badBindSettingsAreNamed() {
        assertThatThrownBy(() -> HttpEndpoint.start("127.0.0.1", 70000, Map.of()))
                .hasMessage("HTTP port 70000 is out of range: allowed 0..65535 (0 = any free)");
        assertThatThrownBy(() -> HttpEndpoint.start("127.0.0.1", endpoint.port(), Map.of()))
                .hasMessageStartingWith("cannot listen on 127.0.0.1:" + endpoint.port() + ": ");
        assertThatThrownBy(() -> HttpEndpoint.start("127.0.0.1", 0, Map.of("metrics", metrics.route())))
                .hasMessage("route \"metrics\" must start with /");
    }
}
