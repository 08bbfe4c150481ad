package io.podnuma.demo.pinning;

import com.google.protobuf.TextFormat;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.podnuma.controlplane.CommandResult;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfig;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfigYaml;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.NumaResourcePolicyStatus;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.podresources.v1.ListPodResourcesResponse;
import io.podnuma.podresources.v1.PodResources;
import io.podnuma.testkit.agent.AgentCliJar;
import io.podnuma.testkit.agent.AgentProcess;
import io.podnuma.testkit.agent.RenderedConfigs;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.cpu.ProcessAffinity;
import io.podnuma.testkit.host.CgroupDriverName;
import io.podnuma.testkit.host.KubeletLikeHost;
import io.podnuma.testkit.host.PodContainer;
import io.podnuma.testkit.host.QosClass;
import io.podnuma.testkit.operator.OperatorProcess;
import io.podnuma.testkit.pods.SamplePods;
import io.podnuma.testkit.prometheus.PrometheusText;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The demo's second half: the operator and the real node agent pin real processes on this machine. The operator runs
 * as a process; a policy for this machine is applied; the operator labels the kwok node that plays this machine and
 * renders the agent's ConfigMap and DaemonSet; the agent runs that config as a process on a private cgroup subtree
 * (where the DaemonSet's pod would run it), pods bound to the node get containers (cgroups with a real process each,
 * as containerd makes them), and the demo shows what the kernel then lets each process use, what the agent reports
 * through the API, its Events, metrics and PodResources socket, and the policy's status as the operator aggregates
 * it; then the policy is deleted, the node leaves it, the agent gives everything back, and the host is cleaned up.
 */
public final class PinningDemo {

    public static final String POLICY_LABEL = "podnuma.io/policy";
    /** The label the demo's policy selects its node by. */
    static final String DEMO_NODE_LABEL = "podnuma.io/demo-node";

    static final String OPERATOR_NAMESPACE = "podnuma-system";
    static final int DEMO_PRIORITY = 100;
    static final String TRADER = "trader";
    static final String WEB = "web";
    static final String SECOND_TRADER = "trader-2";
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final List<String> SHOWN_METRICS = List.of(
            "podnuma_pin_latency_seconds_count",
            "podnuma_cpu_manager_exclusive_cpu_allocation_count",
            "podnuma_cpu_manager_shared_pool_size_millicores",
            "podnuma_topology_manager_admission_errors_total");

    /**
     * @param nodeName the kwok node that plays this machine
     * @param namespace where the demo's pods go (created, deleted at the end)
     * @param policyName the sample {@code NumaResourcePolicy} (already in the cluster) the demo's policy is made from
     * @param reservedCpus this machine's reserved CPUs, in place of the ones the sample names
     */
    public record Settings(String nodeName, String namespace, String policyName, String reservedCpus) {
        /** The demo's own policy: the sample's, for this machine and this node. */
        public String demoPolicy() {
            return nodeName + "-pinning";
        }
    }

    /** A container the demo started: its pod, QoS class and process. */
    private record Started(String pod, String container, String qos, long pid) {}

    private final ControlPlane plane;
    private final Settings settings;
    private final PrintStream out;
    private OperatorProcess operator;

    public PinningDemo(ControlPlane plane, Settings settings, PrintStream out) {
        this.plane = plane;
        this.settings = settings;
        this.out = out;
    }

    /**
     * Why the pinning part cannot run here (not root, no cgroup v1 cpuset hierarchy, the agent's jar not built), or
     * empty when it can.
     */
    public static Optional<String> unavailable() {
        Optional<String> host = HostCheck.unavailable();
        if (host.isPresent()) {
            return host;
        }
        try {
            AgentCliJar.locate();
        } catch (IllegalStateException noJar) {
            return Optional.of(noJar.getMessage());
        }
        return Optional.empty();
    }

    /** Runs the whole part; the host and the cluster are cleaned up whatever happens. */
    public PinningReport run() throws Exception {
        Path work = Files.createTempDirectory("podnuma-demo-");
        AgentProcess agent;
        KubeletLikeHost sandbox;
        try {
            agent = AgentProcess.prepare(work, plane.kubeconfig());
            sandbox = KubeletLikeHost.create(CgroupDriverName.CGROUPFS, "demo");
        } catch (IOException | RuntimeException e) {
            deleteTree(work);
            throw e;
        }
        // Ctrl-C skips finally blocks; the hook still ends the processes and removes the subtree.
        Thread onExit = new Thread(() -> closeQuietly(agent, sandbox, work), "podnuma-demo-cleanup");
        Runtime.getRuntime().addShutdownHook(onExit);
        List<Long> pids;
        PinningReport report;
        try (sandbox;
                agent) {
            report = steps(sandbox, agent, work);
            pids = sandbox.pids();
        } finally {
            stopOperator();
            cleanUpCluster();
            deleteTree(work);
            try {
                Runtime.getRuntime().removeShutdownHook(onExit);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
        long left = pids.stream()
                .filter(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .count();
        out.printf(
                "%nCleaned up: %d processes ended (%d left), cgroup subtree %s %s, namespace %s deleted.%n",
                pids.size(),
                left,
                sandbox.root(),
                Files.exists(sandbox.root()) ? "STILL THERE" : "removed",
                settings.namespace());
        return report;
    }

    private void closeQuietly(AgentProcess agent, KubeletLikeHost sandbox, Path work) {
        try {
            if (operator != null) {
                operator.close();
            }
            agent.close();
            sandbox.close();
            deleteTree(work);
        } catch (Exception e) {
            System.err.println("podnuma demo: clean-up failed: " + e.getMessage());
        }
    }

    private PinningReport steps(KubeletLikeHost sandbox, AgentProcess agent, Path work) throws Exception {
        String ns = settings.namespace();
        section("The node agent pins real processes on this machine");
        out.printf(
                "A private cgroup v1 cpuset subtree plays the kubelet's cgroup root: %s (CPUs %s).%n",
                sandbox.root(), sandbox.cpus());
        NodeAgentConfig rendered = joinPolicy(sandbox.cpus(), work);
        startAgent(sandbox, agent, rendered);
        plane.ensureNamespace(ns);

        section("Pods bound to " + settings.nodeName() + "; each container is a cgroup with a real process");
        List<Started> started = new ArrayList<>();
        started.addAll(
                startPod(sandbox, SamplePods.inNamespace(ns, SamplePods.budgeted(settings.nodeName(), TRADER, 1))));
        started.addAll(startPod(sandbox, SamplePods.inNamespace(ns, SamplePods.burstable(settings.nodeName(), WEB))));
        NodeStateView first = await(
                "the NumaNodeState of " + settings.nodeName() + " to list " + TRADER + " and " + WEB,
                () -> NodeStateView.read(plane.client(), settings.nodeName()),
                s -> s.pod(ns, TRADER).isPresent() && s.pod(ns, WEB).isPresent());
        CpuList free = first.sharedPool().minus(first.reservedCpus());
        int budget = free.size() + 1;
        out.printf(
                "%s asks for a %d-CPU bubble; CPUs left for bubbles: %s (%d).%n",
                SECOND_TRADER, budget, free.isEmpty() ? "none" : free, free.size());
        started.addAll(startPod(
                sandbox, SamplePods.inNamespace(ns, SamplePods.budgeted(settings.nodeName(), SECOND_TRADER, budget))));
        Optional<String> refusal = awaitRefusal(SECOND_TRADER);

        section("What podnuma decided, and what the kernel lets each process use (/proc/<pid>/status)");
        NodeStateView state = awaitPins(started);
        List<PinnedProcess> pinned = rows(started, state);
        printTable(pinned);

        showNodeState(state);
        showRefusal(refusal);
        String metrics = agent.metrics();
        section("The agent's /metrics (a few lines)");
        PrometheusText.lines(metrics, SHOWN_METRICS).forEach(l -> out.println("  " + l));
        ListPodResourcesResponse list = PodResourcesClient.list(agent.socket());
        showPodResources(list);

        NumaResourcePolicyStatus policyStatus = showPolicyStatus();

        section("The policy is deleted: the operator takes the node out, the agent gives every container everything"
                + " back");
        kubectlShown("delete", "nrp", settings.demoPolicy(), "--wait=false");
        Optional<String> handedTo = await(
                "the operator to take " + settings.nodeName() + " out of " + settings.demoPolicy(),
                () -> Optional.of(policyLabel()),
                l -> l.filter(settings.demoPolicy()::equals).isEmpty());
        out.printf(
                "The operator took node %s out of %s (%s); the DaemonSet controller would now stop the agent's pod:"
                        + " the demo sends the agent SIGTERM.%n",
                settings.nodeName(),
                settings.demoPolicy(),
                handedTo.map(p -> "it hands the node to " + p + ", the policy with the next claim: " + POLICY_LABEL
                                + "=" + p)
                        .orElse("label " + POLICY_LABEL + " removed"));
        int exit = agent.terminate(WAIT);
        out.printf("SIGTERM: the agent exited with %d; its log says:%n", exit);
        agent.logTail().lines().filter(l -> l.contains("stopping")).forEach(l -> out.println("  " + l.strip()));
        out.println("After the agent stopped:");
        List<PinnedProcess> restored = new ArrayList<>();
        for (PinnedProcess p : pinned) {
            restored.add(new PinnedProcess(
                    p.pod(), p.container(), p.qos(), p.decision(), p.pid(), ProcessAffinity.of(p.pid())));
        }
        printTable(restored);
        Optional<NodeStateView> after = NodeStateView.read(plane.client(), settings.nodeName());
        out.printf("NumaNodeState %s: %s%n", settings.nodeName(), after.isPresent() ? "still there" : "deleted");
        boolean policyGone = awaitPolicyGone();
        out.printf(
                "NumaResourcePolicy %s: %s%n",
                settings.demoPolicy(),
                policyGone
                        ? "gone (the operator's finalizer saw the node restored and let it go)"
                        : "STILL THERE after " + WAIT.toSeconds() + " s");

        return new PinningReport(
                settings.nodeName(),
                ns,
                SECOND_TRADER,
                sandbox.cpus(),
                pinned,
                state,
                refusal,
                PrometheusText.sampleValue(metrics, "podnuma_pin_latency_seconds_count"),
                PrometheusText.sampleValue(metrics, "podnuma_cpu_manager_exclusive_cpu_allocation_count"),
                list,
                exit,
                restored,
                after,
                sandbox.root(),
                settings.demoPolicy(),
                policyStatus,
                policyGone);
    }

    /**
     * The operator's part: it runs as a process, the demo applies a policy for this machine, and the operator labels
     * the node and renders the agent's ConfigMap (and DaemonSet, whose pod kwok only pretends to run).
     *
     * @return the agent config the operator rendered
     */
    private NodeAgentConfig joinPolicy(CpuList cpus, Path work) throws Exception {
        plane.ensureNode(
                settings.nodeName(),
                Map.of(DEMO_NODE_LABEL, settings.nodeName()),
                Map.of("cpu", Integer.toString(cpus.size()), "memory", "8Gi", "pods", "110"));
        plane.ensureNamespace(OPERATOR_NAMESPACE);
        operator = OperatorProcess.start(
                work.resolve("operator"),
                plane.kubeconfig(),
                Map.of(
                        "namespace", OPERATOR_NAMESPACE,
                        "agent-image", "podnuma.local/node-agent:demo",
                        "agent-pull-policy", "Never",
                        "leader-election", "false"));
        Duration ready = operator.awaitReady(Duration.ofSeconds(90));
        out.printf(
                "operator run (pid %d, namespace %s) is ready after %d ms; log: %s%n",
                operator.pid(), OPERATOR_NAMESPACE, ready.toMillis(), operator.log());

        NumaResourcePolicy sample = plane.client()
                .resources(NumaResourcePolicy.class)
                .withName(settings.policyName())
                .get();
        if (sample == null || sample.getSpec() == null) {
            throw new IllegalStateException("NumaResourcePolicy " + settings.policyName()
                    + " is not in the cluster: apply crds/examples/" + settings.policyName() + ".yaml first");
        }
        NumaResourcePolicySpec forHere = DemoPolicy.withReservedCpus(sample.getSpec(), settings.reservedCpus());
        NumaResourcePolicySpec spec = new NumaResourcePolicySpec(
                new LabelSelectorBuilder()
                        .addToMatchLabels(DEMO_NODE_LABEL, settings.nodeName())
                        .build(),
                // Above every sample: one of them (spread-across-cores) selects every node, and the oldest policy
                // would win the node on equal priority.
                DEMO_PRIORITY,
                forHere.topologyManager(),
                forHere.cpuManager(),
                forHere.memoryManager(),
                forHere.podLevelResources(),
                forHere.admission(),
                forHere.exportNodeResourceTopology());
        NumaResourcePolicy mine = new NumaResourcePolicy(settings.demoPolicy(), spec);
        String yaml = Serialization.asYaml(mine);
        out.printf(
                "%nThe sample %s names another machine's CPUs (%s); the demo's policy is the same for this machine"
                        + " (reservedCpus \"%s\") and this node, priority %d (a sample that selects every node is"
                        + " older):%n$ kubectl apply -f - <<EOF%n",
                settings.policyName(), reservedCpusOf(sample.getSpec()), settings.reservedCpus(), DEMO_PRIORITY);
        yaml.lines().filter(l -> !l.equals("---")).forEach(l -> out.println("  " + l));
        out.println("EOF");
        out.println("  "
                + plane.kubectlWithStdin(yaml, "apply", "-f", "-")
                        .assertSuccess()
                        .stdout()
                        .strip());

        String label = await(
                        "the operator to label " + settings.nodeName(),
                        () -> Optional.of(policyLabel()),
                        l -> l.filter(settings.demoPolicy()::equals).isPresent())
                .orElseThrow();
        out.printf("The operator labelled node %s %s=%s.%n", settings.nodeName(), POLICY_LABEL, label);
        String configMap = "podnuma-agent-" + settings.demoPolicy();
        ConfigMap rendered = await(
                "the operator's ConfigMap " + OPERATOR_NAMESPACE + "/" + configMap,
                () -> Optional.ofNullable(plane.client()
                        .configMaps()
                        .inNamespace(OPERATOR_NAMESPACE)
                        .withName(configMap)
                        .get()),
                cm -> cm.getData() != null && cm.getData().containsKey("agent.yaml"));
        NodeAgentConfig config = NodeAgentConfigYaml.read(rendered.getData().get("agent.yaml"));
        out.printf(
                "%nThe agent's config file as the operator rendered it (ConfigMap %s/%s, key agent.yaml):%n",
                OPERATOR_NAMESPACE, configMap);
        NodeAgentConfigYaml.write(config)
                .lines()
                .takeWhile(l -> !l.startsWith("policy:"))
                .filter(l -> !l.equals("---"))
                .forEach(l -> out.println("  " + l));
        out.println("  policy: <the demo policy's spec without nodeSelector and priority>");
        return config;
    }

    private void startAgent(KubeletLikeHost sandbox, AgentProcess agent, NodeAgentConfig rendered) throws Exception {
        NodeAgentConfig config =
                agent.configure(RenderedConfigs.onThisHost(rendered, settings.nodeName(), sandbox.kubeletCgroupRoot()));
        out.printf(
                "%nThe DaemonSet's pod would read it with the host's /sys and cgroups mounted at /host/...; this"
                        + " process reads them where they are: node %s, cgroup root %s, state %s.%n",
                config.nodeName(), sandbox.kubeletCgroupRoot(), agent.stateDir());
        agent.start();
        Duration ready = agent.awaitReady(Duration.ofSeconds(60));
        out.printf(
                "node-agent run (pid %d, KUBECONFIG=%s) is ready after %d ms; log: %s%n",
                agent.pid(), plane.kubeconfig(), ready.toMillis(), agent.log());
    }

    /** The policy's status once the operator counts the node ready (or whatever it says after the wait). */
    private NumaResourcePolicyStatus showPolicyStatus() throws InterruptedException {
        section("The policy's status, as the operator gathers it from the node's NumaNodeState and the DaemonSet");
        NumaResourcePolicyStatus status;
        try {
            status = await(
                    "the operator to count " + settings.nodeName() + " ready",
                    () -> Optional.ofNullable(policy()).map(NumaResourcePolicy::getStatus),
                    st -> st.nodesReady() != null && st.nodesReady() == 1);
        } catch (IllegalStateException notYet) {
            out.println("(" + notYet.getMessage() + ")");
            NumaResourcePolicy p = policy();
            status = p == null ? null : p.getStatus();
        }
        kubectlShown("get", "nrp", settings.demoPolicy(), "-o", "wide");
        String describe = plane.kubectl("describe", "nrp", settings.demoPolicy())
                .assertSuccess()
                .stdout();
        out.println("$ kubectl describe nrp " + settings.demoPolicy() + "   (Status and Events)");
        describe.lines().dropWhile(l -> !l.startsWith("Status:")).forEach(l -> out.println("  " + l));
        return status;
    }

    private NumaResourcePolicy policy() {
        return plane.client()
                .resources(NumaResourcePolicy.class)
                .withName(settings.demoPolicy())
                .get();
    }

    private Optional<String> policyLabel() {
        var node = plane.client().nodes().withName(settings.nodeName()).get();
        return node == null || node.getMetadata().getLabels() == null
                ? Optional.empty()
                : Optional.ofNullable(node.getMetadata().getLabels().get(POLICY_LABEL));
    }

    private boolean awaitPolicyGone() throws InterruptedException {
        try {
            await("the operator to let " + settings.demoPolicy() + " go", () -> Optional.of(policy() == null), g -> g);
            return true;
        } catch (IllegalStateException timedOut) {
            return false;
        }
    }

    private void stopOperator() {
        if (operator == null) {
            return;
        }
        try {
            // Deleted while the operator still runs, its finalizer is released; the operator then stops.
            plane.kubectl("delete", "nrp", settings.demoPolicy(), "--ignore-not-found", "--wait=true", "--timeout=30s");
            operator.terminate(WAIT);
        } catch (Exception e) {
            System.err.println("podnuma demo: stopping the operator: " + e.getMessage());
        }
    }

    private static String reservedCpusOf(NumaResourcePolicySpec spec) {
        CpuManager cpu = spec.cpuManager();
        if (cpu != null && cpu.reservedCpus() != null) {
            return "\"" + cpu.reservedCpus() + "\"";
        }
        if (cpu != null && cpu.reservedCpuCount() != null) {
            return "(reservedCpuCount " + cpu.reservedCpuCount() + ")";
        }
        return "(none)";
    }

    /** Creates the pod, waits until kwok reports its containers running, then starts them on the host. */
    private List<Started> startPod(KubeletLikeHost sandbox, Pod pod) throws Exception {
        String ns = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        plane.client().pods().inNamespace(ns).resource(pod).create();
        Pod running = await(
                "pod " + ns + "/" + name + " to run with container IDs",
                () -> Optional.ofNullable(
                        plane.client().pods().inNamespace(ns).withName(name).get()),
                p -> "Running".equals(p.getStatus().getPhase())
                        && statuses(p).stream().allMatch(s -> s.getContainerID() != null));
        String qos = running.getStatus().getQosClass();
        List<Started> started = new ArrayList<>();
        for (ContainerStatus s : statuses(running)) {
            long pid = sandbox.startContainer(PodContainer.fromStatus(
                    QosClass.of(qos), running.getMetadata().getUid(), s.getContainerID()));
            started.add(new Started(name, s.getName(), qos, pid));
        }
        out.printf(
                "  %-9s %-10s containers %s started as pids %s%n",
                name,
                qos,
                started.stream().map(Started::container).toList(),
                started.stream().map(Started::pid).toList());
        return started;
    }

    private static List<ContainerStatus> statuses(Pod p) {
        List<ContainerStatus> all = new ArrayList<>();
        if (p.getStatus().getInitContainerStatuses() != null) {
            all.addAll(p.getStatus().getInitContainerStatuses());
        }
        if (p.getStatus().getContainerStatuses() != null) {
            all.addAll(p.getStatus().getContainerStatuses());
        }
        return all;
    }

    private Optional<String> awaitRefusal(String pod) throws InterruptedException {
        try {
            Event e = await(
                    "a Warning Event on pod " + pod,
                    () -> plane.client().v1().events().inNamespace(settings.namespace()).list().getItems().stream()
                            .filter(ev -> pod.equals(ev.getInvolvedObject().getName()))
                            .filter(ev -> "Warning".equals(ev.getType()))
                            .findFirst(),
                    ev -> true);
            return Optional.of(e.getReason() + ": " + e.getMessage());
        } catch (IllegalStateException timedOut) {
            out.println("  (" + timedOut.getMessage() + ")");
            return Optional.empty();
        }
    }

    /**
     * Waits until every process runs where the agent says its container belongs: the container's CPUs in
     * {@code NumaNodeState}, or the node's shared pool for a pod it refused. Returns the node state they match.
     */
    private NodeStateView awaitPins(List<Started> started) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        NodeStateView state = null;
        while (System.nanoTime() < deadline) {
            Optional<NodeStateView> read = NodeStateView.read(plane.client(), settings.nodeName());
            if (read.isPresent()) {
                state = read.get();
                boolean all = true;
                for (Started s : started) {
                    all &= ProcessAffinity.of(s.pid()).cpus().equals(expectedCpus(s, state));
                }
                if (all) {
                    return state;
                }
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        if (state == null) {
            throw new IllegalStateException("the agent wrote no NumaNodeState for " + settings.nodeName() + " within "
                    + WAIT.toSeconds() + " s");
        }
        out.printf(
                "(not every process reached its CPUs within %d s; the table shows where they are)%n", WAIT.toSeconds());
        return state;
    }

    private CpuList expectedCpus(Started s, NodeStateView state) {
        return state.container(settings.namespace(), s.pod(), s.container())
                .map(NodeStateView.ContainerView::cpus)
                .orElse(state.sharedPool());
    }

    private List<PinnedProcess> rows(List<Started> started, NodeStateView state) throws IOException {
        List<PinnedProcess> rows = new ArrayList<>();
        for (Started s : started) {
            Decision d = state.container(settings.namespace(), s.pod(), s.container())
                    .flatMap(c -> Decision.ofAssignment(c.assignment()))
                    .orElse(Decision.REFUSED);
            rows.add(new PinnedProcess(s.pod(), s.container(), s.qos(), d, s.pid(), ProcessAffinity.of(s.pid())));
        }
        return rows;
    }

    private void printTable(List<PinnedProcess> rows) {
        String format = "  %-9s %-10s %-11s %-21s %-8s %-18s %s%n";
        out.printf(format, "POD", "CONTAINER", "QOS", "PODNUMA", "PID", "Cpus_allowed_list", "Mems_allowed_list");
        for (PinnedProcess r : rows) {
            out.printf(
                    format,
                    r.pod(),
                    r.container(),
                    r.qos(),
                    r.decision().label(),
                    r.pid(),
                    r.affinity().cpus(),
                    r.affinity().mems());
        }
    }

    private void showNodeState(NodeStateView state) {
        section("kubectl get nns " + settings.nodeName() + " -o wide (NumaNodeState, written by the agent)");
        out.println(plane.kubectl("get", "nns", settings.nodeName(), "-o", "wide")
                .assertSuccess()
                .stdout()
                .strip());
        out.printf(
                "status: reservedCpus %s, sharedPool %s, exclusiveCpus %d; allocations:%n",
                state.reservedCpus(), state.sharedPool(), state.exclusiveCpus());
        for (NodeStateView.PodView p : state.pods()) {
            StringBuilder line = new StringBuilder();
            line.append("  ").append(p.namespace()).append('/').append(p.name()).append(": ");
            line.append(p.bubble().map(b -> "bubble " + b).orElse("no bubble"));
            for (NodeStateView.ContainerView c : p.containers()) {
                line.append(String.format(", %s %s %s", c.name(), c.assignment(), c.cpus()));
            }
            out.println(line);
        }
    }

    private void showRefusal(Optional<String> refusal) {
        section("kubectl get events -n " + settings.namespace() + " --field-selector type=Warning");
        CommandResult events =
                plane.kubectl("get", "events", "-n", settings.namespace(), "--field-selector", "type=Warning");
        out.println(
                events.succeeded() ? events.stdout().strip() : events.output().strip());
        if (refusal.isEmpty()) {
            out.println("(no Warning Event for " + SECOND_TRADER + " yet)");
        }
    }

    private void showPodResources(ListPodResourcesResponse list) {
        section("PodResources List on the agent's socket (kubelet podresources v1 with the 1.37 pod-level fields)");
        list.getPodResourcesList().stream()
                .filter(p -> p.getNamespace().equals(settings.namespace()))
                .sorted(Comparator.comparing(PodResources::getName))
                .forEach(p -> out.println("  " + TextFormat.printer().shortDebugString(p)));
    }

    private CommandResult kubectlShown(String... args) {
        out.println("$ kubectl " + String.join(" ", args));
        CommandResult r = plane.kubectl(args).assertSuccess();
        r.stdout().strip().lines().forEach(l -> out.println("  " + l));
        return r;
    }

    /** Leaves the cluster as it was, also after a failure: no label, no pods, no report object. */
    private void cleanUpCluster() {
        plane.kubectl("label", "node", settings.nodeName(), POLICY_LABEL + "-");
        plane.kubectl("delete", "namespace", settings.namespace(), "--wait=false", "--ignore-not-found");
        plane.kubectl("delete", "nns", settings.nodeName(), "--ignore-not-found");
    }

    private <T> T await(String what, Supplier<Optional<T>> read, Predicate<T> done) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<T> value = read.get();
            if (value.isPresent() && done.test(value.get())) {
                return value.get();
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        throw new IllegalStateException("timed out after " + WAIT.toSeconds() + " s waiting for " + what);
    }

    private void section(String title) {
        out.printf("%n== %s ==%n", title);
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
