package io.podnuma.e2e.realnode;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.controlplane.RealNode;
import io.podnuma.controlplane.RealNodeOptions;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.testkit.GeneratedCrds;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.agent.Simulation;
import io.podnuma.testkit.agent.Simulation.Step;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.cpu.ProcessAffinity;
import io.podnuma.testkit.pods.SamplePods;
import io.podnuma.testkit.prometheus.PrometheusText;
import io.podnuma.testkit.realnode.WorkloadPods;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubelet with its own static CPU manager, single-numa-node at pod scope and the pod-level resource managers
 * (KEP-5526) on: first as a live oracle (the same pods through the kubelet and through podnuma's engine for this
 * machine and policy give every container the same CPUs, and the same pods are refused), then beside the agent as a
 * DaemonSet pod, which must see the kubelet's state, report {@code KubeletConflict} and write nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RealNodeStaticKubeletE2E {

    private static final String NS = "oracle";
    private LocalControlPlane plane;
    private RealNode node;

    @TempDir
    Path workDir;

    @BeforeAll
    void startNode() throws Exception {
        RealNode.assumeAvailable(RealNodeStaticKubeletE2E.class);
        Optional<String> noImages = RealNodeAgent.whyNoImages();
        noImages.ifPresent(why -> System.err.println("[RealNodeStaticKubeletE2E] skipped: " + why));
        Assumptions.assumeTrue(noImages.isEmpty(), () -> noImages.orElse(""));
        CpuList cpus = CpuList.parse(Files.readString(Path.of("/sys/fs/cgroup/cpuset/cpuset.effective_cpus")));
        Assumptions.assumeTrue(
                cpus.size() >= 2, "the static policy reserves CPU 0 and needs a second CPU; this machine has " + cpus);
        node = RealNode.startWithPlane(RealNodeOptions.defaults()
                .withCpuManagerPolicy(RealNodeOptions.CpuManagerPolicy.STATIC)
                .withTopologyManager(RealNodeOptions.TopologyManager.SINGLE_NUMA_NODE_POD_SCOPE)
                .withImages(RealNodeAgent.images()));
        plane = node.plane();
        plane.ensureNamespace(NS);
    }

    @AfterAll
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    /** podnuma's policy for this node: what the kubelet is configured with (CPU 0 reserved, pod scope). */
    private static NumaResourcePolicySpec policy() {
        return SampleConfigs.podScopePolicy(SampleConfigs.reservedCpus("0"), AdmissionAction.WARN, false);
    }

    @Test
    @Order(1)
    void theKubeletAndTheEngineGiveTheSamePodsTheSameCpusAndRefuseTheSamePods() throws Exception {
        String n = node.nodeName();
        Pod sharedBubble = SamplePods.budgeted(n, "shared-bubble", 1);
        Pod sidecarStarved = new PodBuilder(SamplePods.budgeted(n, "sidecar-starved", 1))
                .editSpec()
                .editFirstContainer()
                .withResources(SamplePods.guaranteed("1", "64Mi"))
                .endContainer()
                .endSpec()
                .build();
        Pod exclusiveEngine = new PodBuilder(sidecarStarved)
                .editMetadata()
                .withName("exclusive-engine")
                .endMetadata()
                .editSpec()
                .withInitContainers(List.of())
                .endSpec()
                .build();
        Pod web = SamplePods.burstable(n, "web");

        // The sequence: a bubble both containers share; it goes; a pod whose one CPU is the engine's, leaving
        // nothing for its sidecar; a pod with an exclusive engine; a Burstable pod on the shared pool.
        List<Step> steps = List.of(
                Step.admit(sharedBubble),
                Step.delete(sharedBubble),
                Step.admit(sidecarStarved),
                Step.admit(exclusiveEngine),
                Step.admit(web));
        // Each pod as the kubelet decided it when it came, and the node at the end; the engine's the same way.
        Map<String, Map<String, CpuList>> kubeletAtAdmission = new TreeMap<>();
        Map<String, String> kubeletRefusals = new TreeMap<>();
        Map<String, Map<String, CpuList>> engineAtAdmission = new TreeMap<>();
        Simulation.Result engine = null;
        for (int i = 0; i < steps.size(); i++) {
            Step step = steps.get(i);
            String name = step.pod().getMetadata().getName();
            if (step.delete()) {
                plane.kubectl("delete", "pod", "-n", NS, name, "--wait=true", "--timeout=60s")
                        .assertSuccess();
                continue;
            }
            plane.client()
                    .pods()
                    .inNamespace(NS)
                    .resource(WorkloadPods.ofImage(step.pod(), RealNodeAgent.workloadImage()))
                    .create();
            Pod decided = awaitDecided(name);
            if ("Failed".equals(decided.getStatus().getPhase())) {
                kubeletRefusals.put(
                        name,
                        decided.getStatus().getReason() + ": "
                                + decided.getStatus().getMessage());
            } else {
                Map<String, CpuList> cpus = new TreeMap<>();
                WorkloadPods.pids(node, decided).forEach((c, pid) -> cpus.put(c, affinity(pid)));
                kubeletAtAdmission.put(name, cpus);
            }
            engine = simulate(steps.subList(0, i + 1), i);
            if (engine.cpus().containsKey(name)) {
                engineAtAdmission.put(name, engine.cpus().get(name));
            }
        }
        Map<String, Map<String, CpuList>> kubeletAtEnd = new TreeMap<>();
        podAffinities()
                .forEach((pc, cpus) -> kubeletAtEnd
                        .computeIfAbsent(pc.substring(0, pc.indexOf('/')), k -> new TreeMap<>())
                        .put(pc.substring(pc.indexOf('/') + 1), cpus));
        System.out.println("[RealNodeStaticKubeletE2E] kubelet: " + kubeletAtAdmission + " at the end " + kubeletAtEnd
                + " refused " + kubeletRefusals);
        System.out.println("[RealNodeStaticKubeletE2E] engine:  " + engineAtAdmission + " at the end " + engine.cpus()
                + " refused " + engine.refusals());
        assertThat(engineAtAdmission)
                .as("each admitted pod's containers, when it came")
                .isEqualTo(kubeletAtAdmission);
        assertThat(engine.cpus()).as("every container at the end").isEqualTo(kubeletAtEnd);
        assertThat(engine.refusals().keySet()).as("the refused pods").isEqualTo(kubeletRefusals.keySet());
        // The shapes this proves on this machine: a one-CPU bubble both containers share; an exclusive engine; the
        // Burstable pod on the rest.
        assertThat(kubeletAtAdmission.get("shared-bubble"))
                .isEqualTo(Map.of("proxy", CpuList.of(1), "engine", CpuList.of(1)));
        assertThat(kubeletAtAdmission.get("exclusive-engine")).isEqualTo(Map.of("engine", CpuList.of(1)));
        assertThat(kubeletAtEnd.get("web")).isEqualTo(Map.of("web", CpuList.of(0)));
        // The one difference, recorded: the kubelet's pod-level CPU hints already leave out a budget its partition
        // cannot fill, so the pod fails the topology manager (TopologyAffinityError) before the CPU manager would
        // report EmptyPodSharedPoolError; podnuma names the partition's reason.
        assertThat(kubeletRefusals.get("sidecar-starved"))
                .startsWith("TopologyAffinityError: ")
                .contains("Pod Scope pod with pod-level resources failed admission under pod-scope topology manager");
        assertThat(engine.refusals().get("sidecar-starved")).startsWith("EmptyPodSharedPoolError: ");
    }

    @Test
    @Order(2)
    void theAgentBesideTheKubeletsStaticManagersReportsKubeletConflictAndWritesNothing() throws Exception {
        plane.installCrds(GeneratedCrds.numaNodeStates());
        Map<String, CpuList> before = podAffinities();
        assertThat(before).as("the kubelet's pins from the first test").isNotEmpty();
        RealNodeAgent.select(plane, node, "conflict");
        // A short reconcile period: the check below waits for two passes.
        try (RealNodeAgent agent = RealNodeAgent.deploy(
                plane, node, workDir, "conflict", policy(), Map.of("agent-reconcile-period", "2s"))) {
            agent.awaitReady(Optional.empty());
            assertKubeletConflictAndNoWrite(agent, before);
        }
    }

    private void assertKubeletConflictAndNoWrite(RealNodeAgent agent, Map<String, CpuList> before) throws Exception {
        Map<?, ?> condition = awaitCondition("KubeletConflict", agent);
        assertThat(condition.get("status")).isEqualTo("True");
        assertThat(condition.get("reason")).isEqualTo("KubeletManagerActive");
        assertThat(String.valueOf(condition.get("message"))).contains("cpu_manager_state");
        String event = await(
                "a KubeletConflict Event on the node",
                () -> plane.client().v1().events().inAnyNamespace().list().getItems().stream()
                        .filter(e -> "KubeletConflict".equals(e.getReason()))
                        .filter(e ->
                                node.nodeName().equals(e.getInvolvedObject().getName()))
                        .map(e -> e.getType() + " " + e.getMessage())
                        .findFirst());
        assertThat(event).startsWith("Warning");

        // Two reconcile passes after the conflict was reported (the second began after it, and each pass checks the
        // kubelet, reads every cgroup again and pins what it would pin) every container is still where the kubelet
        // put it, and nothing was written.
        double passes = reconcilePasses(agent);
        double later = await(
                "two reconcile passes of the agent after " + passes,
                () -> Optional.of(reconcilePasses(agent)).filter(p -> p >= passes + 2));
        assertThat(podAffinities()).isEqualTo(before);
        String metrics = agent.metrics();
        assertThat(PrometheusText.sampleValue(metrics, "podnuma_pin_latency_seconds_count"))
                .isEqualTo(0.0);
        assertThat(PrometheusText.sampleValue(metrics, "podnuma_drift_repaired_total"))
                .isEqualTo(0.0);
        System.out.println("[RealNodeStaticKubeletE2E] agent beside the static kubelet: " + condition.get("reason")
                + "; " + event + "; pins unchanged " + before + " over reconcile passes " + passes + " to " + later);
    }

    private static double reconcilePasses(RealNodeAgent agent) {
        try {
            return PrometheusText.sampleValue(agent.metrics(), "podnuma_reconcile_passes_total");
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the agent's /metrics", e);
        }
    }

    /** The same steps through {@code node-agent simulate} on this machine's sysfs. */
    private Simulation.Result simulate(List<Step> steps, int run) {
        return Simulation.run(Path.of("/sys"), policy(), NS, steps, workDir, Integer.toString(run));
    }

    private Pod awaitDecided(String name) throws InterruptedException {
        return await("pod " + name + " running or refused by the kubelet", () -> {
            Pod p = plane.client().pods().inNamespace(NS).withName(name).get();
            if (p == null || p.getStatus() == null) {
                return Optional.empty();
            }
            if ("Failed".equals(p.getStatus().getPhase())) {
                return Optional.of(p);
            }
            // Running: its containers start within moments.
            return "Running".equals(p.getStatus().getPhase())
                    ? Optional.of(node.awaitRunning(NS, name))
                    : Optional.empty();
        });
    }

    private Map<String, CpuList> podAffinities() {
        Map<String, CpuList> out = new TreeMap<>();
        for (Pod p : plane.client().pods().inNamespace(NS).list().getItems()) {
            if ("Running".equals(p.getStatus().getPhase())) {
                WorkloadPods.pids(node, p)
                        .forEach((c, pid) -> out.put(p.getMetadata().getName() + "/" + c, affinity(pid)));
            }
        }
        return out;
    }

    private Map<?, ?> awaitCondition(String type, RealNodeAgent agent) throws InterruptedException {
        try {
            return await("condition " + type + " in the node's NumaNodeState", () -> {
                GenericKubernetesResource r = plane.client()
                        .genericKubernetesResources("podnuma.io/v1alpha1", "NumaNodeState")
                        .withName(node.nodeName())
                        .get();
                if (r == null
                        || !(r.getAdditionalProperties().get("status") instanceof Map<?, ?> s)
                        || !(s.get("conditions") instanceof List<?> cs)) {
                    return Optional.empty();
                }
                return cs.stream()
                        .<Map<?, ?>>map(c -> (Map<?, ?>) c)
                        .filter(c -> type.equals(c.get("type")))
                        .findFirst();
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n" + agent.logs(), e);
        }
    }

    private static CpuList affinity(long pid) {
        try {
            return ProcessAffinity.allowedCpus(pid);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static <T> T await(String what, java.util.function.Supplier<Optional<T>> read) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            Optional<T> v = read.get();
            if (v.isPresent()) {
                return v.get();
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
        throw new AssertionError("timed out after 90 s waiting for " + what);
    }
}
