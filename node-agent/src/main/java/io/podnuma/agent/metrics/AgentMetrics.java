package io.podnuma.agent.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.http.Response;
import io.podnuma.agent.http.Route;
import io.podnuma.agent.report.ConditionBook;
import io.podnuma.agent.report.ConditionType;
import io.podnuma.crds.v1alpha1.ConditionStatus;
import io.podnuma.jvmmetrics.JvmProcessMetrics;
import io.prometheus.metrics.core.metrics.Histogram;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * Every metric the agent exports, registered in one place: the kubelet's resource-manager metrics under
 * {@code podnuma_<kubelet name>} (spec §9), KEP-5526's {@code resource_manager_*} and the agent's own.
 *
 * <p>Gauges that mirror the node state are set only by {@link #observe(NodeState)}; everything else is an
 * intention-named method. Label values come from enums or small fixed sets, never from pods or containers, so
 * the number of series is bounded by the machine (NUMA nodes) and not by the workload.
 *
 * <p>The process's and the JVM's series ({@code process_*}, {@code jvm_*}) are the Prometheus Java client's, without
 * the prefix ({@link JvmProcessMetrics}).
 *
 * <p>The Prometheus client appends {@code _total} to every counter. The two kubelet counters whose names do not
 * end in {@code _total} ({@code container_aligned_compute_resources_count},
 * {@code resource_manager_container_assignments}) are therefore exported as gauges to keep the kubelet's name.
 */
public final class AgentMetrics {

    public static final String PREFIX = "podnuma_";

    /** The Prometheus text exposition format, version 0.0.4, which every Prometheus server accepts. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /** The kubelet's {@code topology_manager_admission_duration_ms} buckets: 0.05 ms doubling 15 times. */
    static final double[] ADMISSION_DURATION_MS_BUCKETS = exponential(0.05, 2, 15);

    /** Container seen to cpuset written: from a fast cgroup write (100 µs) up to a slow start (10 s). */
    static final double[] PIN_LATENCY_SECONDS_BUCKETS = {
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
    };

    /**
     * Shared-pool change decided to held by every container on the pool: from one pass of writes (1 ms) over the
     * 100 ms budget to retries of failed writes, which back off up to the reconcile period (10 s by default).
     */
    static final double[] POOL_PROPAGATION_SECONDS_BUCKETS = {
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60
    };

    /** An NRI call answered inside the plugin: from 50 µs to the runtime's default 2 s request timeout. */
    static final double[] NRI_REQUEST_SECONDS_BUCKETS = {
        0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2
    };

    static final Set<String> POD_RESOURCES_METHODS = Set.of("List", "Get", "GetAllocatableResources");
    static final Set<String> GRPC_CODES = Set.of(
            "OK",
            "CANCELLED",
            "UNKNOWN",
            "INVALID_ARGUMENT",
            "DEADLINE_EXCEEDED",
            "NOT_FOUND",
            "ALREADY_EXISTS",
            "PERMISSION_DENIED",
            "RESOURCE_EXHAUSTED",
            "FAILED_PRECONDITION",
            "ABORTED",
            "OUT_OF_RANGE",
            "UNIMPLEMENTED",
            "INTERNAL",
            "UNAVAILABLE",
            "DATA_LOSS",
            "UNAUTHENTICATED");
    private static final Pattern RESOURCE_NAME = Pattern.compile("cpu|memory|hugepages-[1-9][0-9]*(Ki|Mi|Gi|Ti)");
    /** The resources {@code resource_manager_container_assignments} reports, all at zero from the start. */
    static final List<String> ASSIGNED_RESOURCES = List.of("cpu", "memory");

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final CpuTopology topology;

    private final Counter cpuPinningRequests =
            counter("cpu_manager_pinning_requests_total", "CPU allocations that required pinning.");
    private final Counter cpuPinningErrors =
            counter("cpu_manager_pinning_errors_total", "CPU allocations that required pinning and failed.");
    private final Counter memoryPinningRequests =
            counter("memory_manager_pinning_requests_total", "Memory allocations that required pinning.");
    private final Counter memoryPinningErrors =
            counter("memory_manager_pinning_errors_total", "Memory allocations that required pinning and failed.");
    private final Counter admissionRequests = counter(
            "topology_manager_admission_requests_total", "Admission requests where resources have to be aligned.");
    private final Counter admissionErrors = counter(
            "topology_manager_admission_errors_total", "Admission requests whose resources could not be aligned.");
    private final Counter driftDetected =
            counter("drift_detected_total", "cgroup cpusets or memory sets found different from the assignment.");
    private final Counter driftRepaired =
            counter("drift_repaired_total", "Drifted cgroups written back to their assignment.");
    private final Counter reconcilePasses = counter(
            "reconcile_passes_total",
            "Reconcile passes completed (kubelet check, cgroup reread, drift repair), one every reconcile period.");
    private final Counter checkpointWrites = counter("checkpoint_writes_total", "Checkpoint files written.");
    private final Counter checkpointWriteErrors =
            counter("checkpoint_write_errors_total", "Checkpoint writes that failed.");
    private final Counter cgroupWriteErrors = counter("cgroup_write_errors_total", "cgroup file writes that failed.");
    private final Counter nriConnections = counter(
            "nri_connections_total", "Registrations with the container runtime as an NRI plugin (1 + reconnects).");
    private final AtomicLong nriConnected = new AtomicLong();
    private final Counter partitionsRefused = counter(
            "cpuset_partitions_refused_total",
            "Exclusive slices the kernel would not make cpuset partitions (cpuManager.partition); they stay exclusive"
                    + " by their cpusets.");
    private final AtomicLong partitions = new AtomicLong();

    private final Histogram admissionDurationMs;
    private final Histogram pinLatencySeconds;
    private final Histogram poolPropagationSeconds;
    private final Histogram nriRequestSeconds;
    private final Histogram podResizeSeconds;

    private final AtomicLong sharedPoolMillicores = new AtomicLong();
    private final AtomicLong exclusiveCpus = new AtomicLong();
    private final Map<Integer, AtomicLong> allocationPerNuma = new TreeMap<>();
    private final Map<AssignmentType, Map<String, AtomicLong>> containerAssignments =
            new EnumMap<>(AssignmentType.class);
    private final Map<AlignmentScope, Map<AlignmentBoundary, AtomicLong>> aligned = new EnumMap<>(AlignmentScope.class);
    private final Map<ConditionType, Map<ConditionStatus, AtomicLong>> conditions = new EnumMap<>(ConditionType.class);
    private final Map<String, Counter> lazyCounters = new ConcurrentHashMap<>();

    /** Registers every metric for a machine; the per-NUMA series exist (at zero) from the start. */
    public AgentMetrics(CpuTopology topology) {
        this.topology = Objects.requireNonNull(topology, "topology");
        // Micrometer's distribution summaries count values below 1 in the bucket of 1, so the sub-millisecond
        // buckets are kept exact with the Prometheus client's own histogram in the same registry.
        admissionDurationMs = Histogram.builder()
                .name(PREFIX + "topology_manager_admission_duration_ms")
                .help("Duration in milliseconds to serve a pod admission request.")
                .classicUpperBounds(ADMISSION_DURATION_MS_BUCKETS)
                .classicOnly()
                .withoutExemplars()
                .register(registry.getPrometheusRegistry());
        pinLatencySeconds = Histogram.builder()
                .name(PREFIX + "pin_latency_seconds")
                .help("Seconds from the agent seeing a container to its cpuset being written.")
                .classicUpperBounds(PIN_LATENCY_SECONDS_BUCKETS)
                .classicOnly()
                .withoutExemplars()
                .register(registry.getPrometheusRegistry());
        poolPropagationSeconds = Histogram.builder()
                .name(PREFIX + "shared_pool_propagation_seconds")
                .help("Seconds from a decision that changed the node shared pool to every container on the pool "
                        + "holding the new pool.")
                .classicUpperBounds(POOL_PROPAGATION_SECONDS_BUCKETS)
                .classicOnly()
                .withoutExemplars()
                .register(registry.getPrometheusRegistry());

        podResizeSeconds = Histogram.builder()
                .name(PREFIX + "pod_resize_duration_seconds")
                .help("Seconds from the agent taking a resized pod's update to the new CPUs written to its containers'"
                        + " cpusets (the checkpoint saved first).")
                .classicUpperBounds(PIN_LATENCY_SECONDS_BUCKETS)
                .classicOnly()
                .withoutExemplars()
                .register(registry.getPrometheusRegistry());
        for (ResizeOutcome o : ResizeOutcome.values()) {
            resizeCounter(o);
        }
        nriRequestSeconds = Histogram.builder()
                .name(PREFIX + "nri_request_duration_seconds")
                .help("Seconds the agent took to answer an NRI call of the container runtime, by method.")
                .labelNames("method")
                .classicUpperBounds(NRI_REQUEST_SECONDS_BUCKETS)
                .classicOnly()
                .withoutExemplars()
                .register(registry.getPrometheusRegistry());
        gauge(
                "nri_connected",
                "1 while the agent is registered with the container runtime as an NRI plugin, else 0.",
                Map.of(),
                nriConnected);
        gauge(
                "cpuset_partitions",
                "Exclusive slices that are cgroup v2 cpuset partitions in force now (cpuManager.partition).",
                Map.of(),
                partitions);
        gauge(
                "cpu_manager_shared_pool_size_millicores",
                "Size of the node shared CPU pool in millicores.",
                Map.of(),
                sharedPoolMillicores);
        gauge(
                "cpu_manager_exclusive_cpu_allocation_count",
                "CPUs exclusively allocated on this node.",
                Map.of(),
                exclusiveCpus);
        topology.numaNodesOf(topology.onlineCpus()).forEach(node -> {
            AtomicLong value = new AtomicLong();
            allocationPerNuma.put(node, value);
            gauge(
                    "cpu_manager_allocation_per_numa",
                    "Exclusively allocated CPUs per NUMA node.",
                    Map.of("numa_node", Integer.toString(node)),
                    value);
        });
        for (AssignmentType type : AssignmentType.values()) {
            Map<String, AtomicLong> byResource = new TreeMap<>();
            for (String resource : ASSIGNED_RESOURCES) {
                AtomicLong value = new AtomicLong();
                byResource.put(resource, value);
                gauge(
                        "resource_manager_container_assignments",
                        "Containers holding each kind of resource assignment now.",
                        Map.of("assignment_type", type.label(), "resource_name", resource),
                        value);
            }
            containerAssignments.put(type, byResource);
        }
        for (AlignmentScope scope : AlignmentScope.values()) {
            Map<AlignmentBoundary, AtomicLong> byBoundary = new EnumMap<>(AlignmentBoundary.class);
            for (AlignmentBoundary boundary : AlignmentBoundary.values()) {
                AtomicLong value = new AtomicLong();
                byBoundary.put(boundary, value);
                gauge(
                        "container_aligned_compute_resources_count",
                        "Containers given aligned compute resources, by scope and boundary (only grows).",
                        Map.of("scope", scope.label(), "boundary", boundary.label()),
                        value);
            }
            aligned.put(scope, byBoundary);
        }
        // One series per condition and status, as kube-state-metrics exports conditions: alerts match the status
        // they mean (status="true") and a missing condition reads 0 everywhere instead of vanishing.
        for (ConditionType type : ConditionType.values()) {
            Map<ConditionStatus, AtomicLong> byStatus = new EnumMap<>(ConditionStatus.class);
            for (ConditionStatus status : ConditionStatus.values()) {
                AtomicLong value = new AtomicLong();
                byStatus.put(status, value);
                gauge(
                        "agent_condition",
                        "The agent's NumaNodeState conditions: 1 for the status a condition has now, else 0.",
                        Map.of("condition", type.wire(), "status", status.wire().toLowerCase(Locale.ROOT)),
                        value);
            }
            conditions.put(type, byStatus);
        }
        // The allocation counters exist at zero for the resources every node has, so rate() sees their start.
        for (AllocationSource source : AllocationSource.values()) {
            ASSIGNED_RESOURCES.forEach(resource -> allocations(resource, source));
            allocationErrors(source);
        }
        // The agent's own memory, CPU and JVM, read when scraped: alerts on its memory need no cAdvisor join.
        JvmProcessMetrics.register(registry.getPrometheusRegistry());
    }

    /** Sets every state-mirroring gauge from one node state; call it after each decision. */
    public void observe(NodeState state) {
        Objects.requireNonNull(state, "state");
        sharedPoolMillicores.set(state.sharedPool().size() * 1000L);
        CpuSet.Builder exclusive = CpuSet.builder();
        state.cpuOwners().values().forEach(exclusive::addAll);
        CpuSet all = exclusive.build();
        exclusiveCpus.set(all.size());
        allocationPerNuma.forEach((node, value) -> value.set(all.intersectionSize(topology.cpusInNumaNode(node))));

        Map<AssignmentType, Map<String, Long>> counts = new EnumMap<>(AssignmentType.class);
        for (PodAssignment pod : state.pods().values()) {
            for (ContainerAssignment c : pod.containers()) {
                cpuAssignment(pod, c).ifPresent(t -> increment(counts, t, "cpu"));
                memoryAssignment(pod, c).ifPresent(t -> increment(counts, t, "memory"));
            }
        }
        containerAssignments.forEach((type, byResource) -> byResource.forEach((resource, value) ->
                value.set(counts.getOrDefault(type, Map.of()).getOrDefault(resource, 0L))));
    }

    private static Optional<AssignmentType> cpuAssignment(PodAssignment pod, ContainerAssignment c) {
        return switch (c.kind()) {
            case EXCLUSIVE ->
                Optional.of(pod.hasBubble() ? AssignmentType.POD_EXCLUSIVE : AssignmentType.NODE_EXCLUSIVE);
            case POD_SHARED -> Optional.of(AssignmentType.POD_SHARED);
            case NODE_SHARED -> Optional.empty();
        };
    }

    private static Optional<AssignmentType> memoryAssignment(PodAssignment pod, ContainerAssignment c) {
        boolean podBudget = !pod.podMemory().isEmpty();
        if (!c.memory().isEmpty()) {
            return Optional.of(podBudget ? AssignmentType.POD_EXCLUSIVE : AssignmentType.NODE_EXCLUSIVE);
        }
        if (podBudget && !c.memoryNodes().isEmpty()) {
            return Optional.of(AssignmentType.POD_SHARED);
        }
        return Optional.empty();
    }

    private static void increment(Map<AssignmentType, Map<String, Long>> counts, AssignmentType type, String resource) {
        counts.computeIfAbsent(type, t -> new TreeMap<>()).merge(resource, 1L, Long::sum);
    }

    /** Mirrors the agent's conditions; a condition the book does not hold is 0 for every status. */
    public void conditions(ConditionBook book) {
        Objects.requireNonNull(book, "book");
        conditions.forEach((type, byStatus) -> {
            var held = Optional.ofNullable(book.byType().get(type.wire()));
            byStatus.forEach((status, value) -> value.set(
                    held.filter(c -> status.wire().equals(c.getStatus())).isPresent() ? 1 : 0));
        });
    }

    /** A container needed exclusive CPUs; {@code succeeded} false when none could be given. */
    public void cpuPinning(boolean succeeded) {
        cpuPinningRequests.increment();
        if (!succeeded) {
            cpuPinningErrors.increment();
        }
    }

    /** A container or pod needed pinned memory; {@code succeeded} false when none could be given. */
    public void memoryPinning(boolean succeeded) {
        memoryPinningRequests.increment();
        if (!succeeded) {
            memoryPinningErrors.increment();
        }
    }

    /** One topology-manager admission, how long it took and whether the pod was admitted. */
    public void topologyAdmission(Duration took, boolean admitted) {
        admissionRequests.increment();
        if (!admitted) {
            admissionErrors.increment();
        }
        admissionDurationMs.observe(
                nonNegative(took, "topology admission duration").toNanos() / 1_000_000.0);
    }

    /** A container got compute resources aligned to {@code boundary} under {@code scope}. */
    public void alignedCompute(AlignmentScope scope, AlignmentBoundary boundary) {
        aligned.get(Objects.requireNonNull(scope, "scope"))
                .get(Objects.requireNonNull(boundary, "boundary"))
                .incrementAndGet();
    }

    /** One exclusive allocation of {@code resourceName} ({@code cpu}, {@code memory}, {@code hugepages-<size>}). */
    public void resourceAllocated(String resourceName, AllocationSource source) {
        allocations(checkResourceName(resourceName), Objects.requireNonNull(source, "source"))
                .increment();
    }

    private Counter allocations(String resourceName, AllocationSource source) {
        return lazyCounter(
                "resource_manager_allocations_total",
                "Exclusive resource allocations, by resource and where they were drawn from.",
                "resource_name",
                resourceName,
                "source",
                source.label());
    }

    private Counter allocationErrors(AllocationSource source) {
        return lazyCounter(
                "resource_manager_allocation_errors_total",
                "Exclusive resource allocations that failed, by where they were to be drawn from.",
                "source",
                source.label());
    }

    /** An exclusive allocation that failed, by where it was to be drawn from. */
    public void resourceAllocationFailed(AllocationSource source) {
        allocationErrors(Objects.requireNonNull(source, "source")).increment();
    }

    /** Time from the agent seeing a container to its cpuset being written. */
    public void pinLatency(Duration seenToWritten) {
        pinLatencySeconds.observe(nonNegative(seenToWritten, "pin latency").toNanos() / 1e9);
    }

    /** What the agent made of a pod resized in place. */
    public enum ResizeOutcome {
        /** The new size is in force. */
        RESIZED("resized"),
        /** It cannot be given in place; the pod keeps what it holds. */
        INFEASIBLE("infeasible");

        private final String label;

        ResizeOutcome(String label) {
            this.label = label;
        }
    }

    /** A resize answered. */
    public void podResized(ResizeOutcome outcome) {
        resizeCounter(outcome).increment();
    }

    /** Time from a resized pod's update taken to its new CPUs written to its containers' cpusets. */
    public void podResizeWritten(Duration took) {
        podResizeSeconds.observe(nonNegative(took, "pod resize").toNanos() / 1e9);
    }

    private Counter resizeCounter(ResizeOutcome outcome) {
        return lazyCounter(
                "pod_resizes_total",
                "Pods resized in place (by the resize subresource), by what the agent made of it.",
                "result",
                outcome.label);
    }

    /** Time from a decision that changed the node shared pool to every container on the pool holding it. */
    public void sharedPoolPropagated(Duration decidedToHeld) {
        poolPropagationSeconds.observe(
                nonNegative(decidedToHeld, "shared pool propagation").toNanos() / 1e9);
    }

    public void driftDetected() {
        driftDetected.increment();
    }

    public void driftRepaired() {
        driftRepaired.increment();
    }

    public void reconcilePassed() {
        reconcilePasses.increment();
    }

    public void checkpointWritten() {
        checkpointWrites.increment();
    }

    public void checkpointWriteFailed() {
        checkpointWriteErrors.increment();
    }

    /** The exclusive slices that are cpuset partitions in force now. */
    public void partitionsInForce(int count) {
        partitions.set(count);
    }

    public void partitionRefused() {
        partitionsRefused.increment();
    }

    public void cgroupWriteFailed() {
        cgroupWriteErrors.increment();
    }

    /** Whether the agent is registered with the runtime as an NRI plugin now; each registration is counted. */
    public void nriConnected(boolean connected) {
        if (connected && nriConnected.getAndSet(1) == 0) {
            nriConnections.increment();
        } else if (!connected) {
            nriConnected.set(0);
        }
    }

    /** One NRI call, answered (or made, for {@link NriCall#UPDATE_CONTAINERS}) in {@code took}. */
    public void nriRequest(NriCall call, NriResult result, Duration took) {
        lazyCounter(
                        "nri_requests_total",
                        "NRI calls between the container runtime and the agent, by method and result.",
                        "method",
                        call.label(),
                        "result",
                        result.label())
                .increment();
        if (call != NriCall.UPDATE_CONTAINERS) {
            nriRequestSeconds
                    .labelValues(call.label())
                    .observe(nonNegative(took, "NRI request duration").toNanos() / 1e9);
        }
    }

    /** One PodResources call: {@code method} List, Get or GetAllocatableResources; {@code code} a gRPC status name. */
    public void podResourcesRequest(String method, String code) {
        if (!POD_RESOURCES_METHODS.contains(method)) {
            throw new IllegalArgumentException("podresources method \"" + method + "\" is not a metric label: allowed "
                    + String.join(", ", new TreeSet<>(POD_RESOURCES_METHODS)));
        }
        if (!GRPC_CODES.contains(code)) {
            throw new IllegalArgumentException("gRPC code \"" + code
                    + "\" is not a metric label: allowed a gRPC status code name such as OK or INTERNAL");
        }
        lazyCounter(
                        "podresources_requests_total",
                        "PodResources gRPC requests, by method and status code.",
                        "method",
                        method,
                        "code",
                        code)
                .increment();
    }

    /** The Prometheus text exposition (format 0.0.4) of every metric. */
    public String scrape() {
        return registry.scrape(CONTENT_TYPE);
    }

    public String contentType() {
        return CONTENT_TYPE;
    }

    /** {@code /metrics}: the scrape with its content type. */
    public Route route() {
        return () -> new Response(200, contentType(), scrape());
    }

    private Counter counter(String name, String help) {
        return Counter.builder(PREFIX + name).description(help).register(registry);
    }

    private Counter lazyCounter(String name, String help, String... labels) {
        return lazyCounters.computeIfAbsent(String.join("\u0000", name, String.join("\u0000", labels)), k -> {
            Counter.Builder b = Counter.builder(PREFIX + name).description(help);
            for (int i = 0; i < labels.length; i += 2) {
                b.tag(labels[i], labels[i + 1]);
            }
            return b.register(registry);
        });
    }

    private void gauge(String name, String help, Map<String, String> labels, AtomicLong value) {
        Gauge.Builder<AtomicLong> b = Gauge.builder(PREFIX + name, value, AtomicLong::get)
                .description(help)
                .strongReference(true);
        labels.forEach(b::tag);
        b.register(registry);
    }

    private static String checkResourceName(String resourceName) {
        if (resourceName == null || !RESOURCE_NAME.matcher(resourceName).matches()) {
            throw new IllegalArgumentException("resource_name \"" + resourceName
                    + "\" is not a metric label: allowed cpu, memory or hugepages-<size> such as hugepages-2Mi");
        }
        return resourceName;
    }

    private static Duration nonNegative(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative()) {
            throw new IllegalArgumentException(what + " " + d + " is negative: allowed zero or more");
        }
        return d;
    }

    private static double[] exponential(double start, double factor, int count) {
        double[] b = new double[count];
        for (int i = 0; i < count; i++) {
            b[i] = start * Math.pow(factor, i);
        }
        return b;
    }
}
