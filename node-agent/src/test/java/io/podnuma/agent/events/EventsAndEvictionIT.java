package io.podnuma.agent.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.testkit.agent.AgentTokens;
import io.podnuma.testkit.chart.PodnumaChart;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Events and evictions against the real kube-apiserver (with the Node authorizer and NodeRestriction, as on every real
 * cluster), with pods made Running by kwok. The agent side is the chart's own identity: its ServiceAccount and
 * ClusterRole ({@code templates/agent-rbac.yaml}) with a token bound to an agent pod on {@link #node}, as the kubelet
 * mounts it, so the API server knows which node the agent may act as.
 */
@ExtendWith(ControlPlaneExtension.class)
class EventsAndEvictionIT {

    static final String SUFFIX = UUID.randomUUID().toString().substring(0, 6);
    static final String NS = "events-it-" + SUFFIX;
    static final String AGENT_POD = "agent-events-it-" + SUFFIX;
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    /** The chart's values files for {@code helm template}; removed after the class. */
    @TempDir
    static Path helmDir;

    static String node;
    static String otherNode;
    static String serviceAccount;
    static KubernetesClient agent;

    @BeforeAll
    static void setUp(ControlPlane cp) throws Exception {
        Map<String, String> capacity = Map.of("cpu", "16", "memory", "64Gi", "pods", "110");
        node = cp.ensureNode("events-it-" + SUFFIX, Map.of(), capacity);
        otherNode = cp.ensureNode("events-it-other-" + SUFFIX, Map.of(), capacity);
        cp.ensureNamespace(NS);
        serviceAccount = new PodnumaChart(cp, helmDir).applyAgentRbac();
        cp.client()
                .resource(AgentTokens.agentPod(AGENT_POD, PodnumaChart.NAMESPACE, serviceAccount, node))
                .create();
        agent = AgentTokens.clientWithToken(
                cp, AgentTokens.boundToken(cp, PodnumaChart.NAMESPACE, serviceAccount, AGENT_POD));
    }

    @AfterAll
    static void tearDown(ControlPlane cp) {
        if (agent != null) {
            agent.close();
        }
        cp.client()
                .pods()
                .inNamespace(PodnumaChart.NAMESPACE)
                .withName(AGENT_POD)
                .delete();
        cp.client().namespaces().withName(NS).delete();
    }

    private static EventRecorderSettings fastRecorder() {
        return EventRecorderSettings.defaults().withRetries(3, Duration.ofMillis(50), Duration.ofMillis(200));
    }

    private static EvictionSettings fastEvictor(int maxBlocked) {
        return new EvictionSettings(
                maxBlocked,
                Duration.ofMillis(300),
                3,
                Duration.ofMillis(100),
                Duration.ofSeconds(1),
                Duration.ofSeconds(20));
    }

    private static Pod runningPod(ControlPlane cp, String name, Map<String, String> labels) {
        return runningPod(cp, name, labels, node);
    }

    private static Pod runningPod(ControlPlane cp, String name, Map<String, String> labels, String onNode) {
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withNamespace(NS)
                .withName(name)
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .withNodeName(onNode)
                .addNewContainer()
                .withName("app")
                .withImage("registry.example/app:1")
                .endContainer()
                .endSpec()
                .build();
        Pod created = cp.client().pods().resource(pod).create();
        String uid = created.getMetadata().getUid();
        await("pod " + name + " Running", () -> {
            Pod p = cp.client().pods().inNamespace(NS).withName(name).get();
            return p != null
                    && p.getMetadata().getUid().equals(uid)
                    && "Running".equals(p.getStatus().getPhase());
        });
        return cp.client().pods().inNamespace(NS).withName(name).get();
    }

    /** One eviction by the agent's own evictor, as its node; the Events it raised are written before the answer. */
    private static EvictionResult evictAsTheAgent(PodRef pod, String why) throws Exception {
        try (KubeEventRecorder recorder = KubeEventRecorder.start(agent, node, fastRecorder());
                PodEvictor evictor = new PodEvictor(agent, new NodeRef(node), recorder, fastEvictor(3))) {
            EvictionResult result = evictor.evict(pod, why).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            assertThat(recorder.awaitIdle(TIMEOUT)).isTrue();
            return result;
        }
    }

    /** The pod {@code name} of the test namespace is still the one with {@code uid}, and not terminating. */
    private static void assertUntouched(ControlPlane cp, String name, String uid) {
        Pod pod = cp.client().pods().inNamespace(NS).withName(name).get();
        assertThat(pod).as("pod %s", name).isNotNull();
        assertThat(pod.getMetadata().getUid()).isEqualTo(uid);
        assertThat(pod.getMetadata().getDeletionTimestamp()).isNull();
    }

    private static PodRef ref(Pod pod) {
        return new PodRef(
                pod.getMetadata().getUid(),
                pod.getMetadata().getNamespace(),
                pod.getMetadata().getName());
    }

    private static List<Event> eventsOn(ControlPlane cp, String namespace, String uid) {
        return cp.client()
                .v1()
                .events()
                .inNamespace(namespace)
                .withField("involvedObject.uid", uid)
                .list()
                .getItems();
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + TIMEOUT + " waiting for " + what);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
        }
    }

    @Test
    void anEventOnAPodShowsInDescribeAndARepeatRaisesItsCount(ControlPlane cp) throws InterruptedException {
        Pod pod = runningPod(cp, "described", Map.of());
        PodRef ref = ref(pod);
        String message = "Resources cannot be allocated with Topology locality: 6 CPUs on one NUMA node";

        try (KubeEventRecorder recorder = KubeEventRecorder.start(agent, node, fastRecorder())) {
            recorder.warning(new PodTarget(ref), EventReason.TOPOLOGY_AFFINITY_ERROR, message);
            assertThat(recorder.awaitIdle(TIMEOUT)).isTrue();

            String describe = cp.kubectl("describe", "pod", "-n", NS, "described")
                    .assertSuccess()
                    .stdout();
            assertThat(describe)
                    .contains("TopologyAffinityError")
                    .contains(message)
                    .contains("podnuma-agent");

            List<Event> events = eventsOn(cp, NS, ref.uid());
            assertThat(events).singleElement().satisfies(e -> {
                assertThat(e.getType()).isEqualTo("Warning");
                assertThat(e.getReason()).isEqualTo("TopologyAffinityError");
                assertThat(e.getMessage()).isEqualTo(message);
                assertThat(e.getCount()).isEqualTo(1);
                assertThat(e.getInvolvedObject().getKind()).isEqualTo("Pod");
                assertThat(e.getInvolvedObject().getName()).isEqualTo("described");
                assertThat(e.getSource().getComponent()).isEqualTo("podnuma-agent");
                assertThat(e.getSource().getHost()).isEqualTo(node);
                assertThat(e.getReportingComponent()).isEqualTo("podnuma-agent");
                assertThat(e.getReportingInstance()).isEqualTo(node);
            });
            String name = events.get(0).getMetadata().getName();

            recorder.warning(new PodTarget(ref), EventReason.TOPOLOGY_AFFINITY_ERROR, message);
            recorder.warning(new PodTarget(ref), EventReason.TOPOLOGY_AFFINITY_ERROR, message);
            assertThat(recorder.awaitIdle(TIMEOUT)).isTrue();

            assertThat(eventsOn(cp, NS, ref.uid())).singleElement().satisfies(e -> {
                assertThat(e.getMetadata().getName()).isEqualTo(name);
                assertThat(e.getCount()).isEqualTo(3);
            });
            assertThat(cp.kubectl("describe", "pod", "-n", NS, "described")
                            .assertSuccess()
                            .stdout())
                    .containsPattern("\\(x3 over [^)]*\\)\\s+podnuma-agent");
            assertThat(recorder.stats()).isEqualTo(new EventRecorderStats(1, 2, 0, 0, 0, 0));
        }
    }

    @Test
    void anEventOnTheNodeShowsInDescribeNode(ControlPlane cp) throws InterruptedException {
        String message = "kubelet cpuManagerPolicy is static (" + SUFFIX + "); podnuma writes nothing on this node";
        try (KubeEventRecorder recorder = KubeEventRecorder.start(agent, node, fastRecorder())) {
            recorder.warning(new NodeRef(node), EventReason.KUBELET_CONFLICT, message);
            assertThat(recorder.awaitIdle(TIMEOUT)).isTrue();
            assertThat(recorder.stats().created()).isEqualTo(1);
        }
        assertThat(eventsOn(cp, "default", node))
                .extracting(Event::getReason, Event::getMessage)
                .contains(org.assertj.core.groups.Tuple.tuple("KubeletConflict", message));
        assertThat(cp.kubectl("describe", "node", node).assertSuccess().stdout())
                .contains("KubeletConflict")
                .contains(message);
    }

    @Test
    void evictionDeletesARunningPodAndSaysSo(ControlPlane cp) throws Exception {
        Pod pod = runningPod(cp, "evicted", Map.of("app", "free"));
        PodRef ref = ref(pod);

        EvictionResult result = evictAsTheAgent(ref, "TopologyAffinityError: no NUMA node has 6 free CPUs");
        assertThat(result).isEqualTo(new EvictionResult.Evicted(ref));
        await(
                "pod evicted deleted",
                () -> cp.client().pods().inNamespace(NS).withName("evicted").get() == null);
        assertThat(eventsOn(cp, NS, ref.uid()))
                .extracting(Event::getReason, Event::getMessage)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(
                        "PodEvicted",
                        "Evicted by the podnuma agent: TopologyAffinityError: no NUMA node has 6 free CPUs"));
    }

    @Test
    void aDisruptionBudgetBlocksTheEvictionAndThePodStays(ControlPlane cp) throws Exception {
        cp.client()
                .policy()
                .v1()
                .podDisruptionBudget()
                .resource(new PodDisruptionBudgetBuilder()
                        .withNewMetadata()
                        .withNamespace(NS)
                        .withName("guard")
                        .endMetadata()
                        .withNewSpec()
                        .withNewMaxUnavailable(0)
                        .withNewSelector()
                        .addToMatchLabels("app", "guarded")
                        .endSelector()
                        .endSpec()
                        .build())
                .create();
        Pod pod = runningPod(cp, "guarded", Map.of("app", "guarded"));
        PodRef ref = ref(pod);

        EvictionResult result = evictAsTheAgent(ref, "TopologyAffinityError");
        assertThat(result).isInstanceOfSatisfying(EvictionResult.Blocked.class, b -> {
            assertThat(b.attempts()).isEqualTo(3);
            assertThat(b.message()).contains("disruption budget");
        });
        assertUntouched(cp, "guarded", ref.uid());
        // Each refusal is reported; identical refusals fold into one Event whose count is the number of tries.
        List<Event> events = eventsOn(cp, NS, ref.uid());
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.getReason()).isEqualTo("EvictionBlocked");
            assertThat(e.getMessage())
                    .startsWith("Eviction blocked, will retry: ")
                    .contains("disruption budget");
            assertThat(e.getCount()).isEqualTo(3);
        });
    }

    @Test
    void aPodRecreatedUnderTheSameNameIsNotEvicted(ControlPlane cp) throws Exception {
        Pod first = runningPod(cp, "reborn", Map.of("app", "reborn"));
        PodRef old = ref(first);
        cp.client().pods().inNamespace(NS).withName("reborn").delete();
        await(
                "first reborn pod gone",
                () -> cp.client().pods().inNamespace(NS).withName("reborn").get() == null);
        Pod second = runningPod(cp, "reborn", Map.of("app", "reborn"));
        assertThat(second.getMetadata().getUid()).isNotEqualTo(old.uid());

        EvictionResult result = evictAsTheAgent(old, "stale decision");
        assertThat(result)
                .isInstanceOfSatisfying(
                        EvictionResult.AlreadyGone.class,
                        g -> assertThat(g.detail())
                                .contains("is now a different pod (uid "
                                        + second.getMetadata().getUid()));
        // The UID precondition on the Eviction itself also protects the new pod when the read races a recreation.
        EvictionApi.Answer raced = new KubeEvictionApi(agent, new NodeRef(node), Duration.ofSeconds(20)).evict(old);
        assertThat(raced.code()).isEqualTo(409);
        assertThat(raced.message()).contains(old.uid());

        assertUntouched(cp, "reborn", second.getMetadata().getUid());
    }

    @Test
    void aPodOfAnotherNodeIsNotEvictedAndStays(ControlPlane cp) throws Exception {
        Pod pod = runningPod(cp, "elsewhere", Map.of("app", "elsewhere"), otherNode);
        PodRef ref = ref(pod);

        EvictionResult result = evictAsTheAgent(ref, "not mine");
        assertThat(result)
                .isInstanceOfSatisfying(
                        EvictionResult.Failed.class,
                        f -> assertThat(f.message())
                                .contains("HTTP 403")
                                .contains("node " + node + " can only evict pods with spec.nodeName set to itself"));
        assertUntouched(cp, "elsewhere", ref.uid());
    }

    @Test
    void theAgentEvictsNeitherAsItselfNorAsAnotherNode(ControlPlane cp) throws Exception {
        Pod mine = runningPod(cp, "mine", Map.of("app", "mine"));
        Pod theirs = runningPod(cp, "theirs", Map.of("app", "theirs"), otherNode);

        // As itself: its ServiceAccount holds no right to evict.
        ApiRequests.Answer asItself = new ApiRequests(agent, TIMEOUT)
                .post(
                        "/api/v1/namespaces/" + NS + "/pods/mine/eviction",
                        new EvictionBuilder()
                                .withNewMetadata()
                                .withNamespace(NS)
                                .withName("mine")
                                .endMetadata()
                                .build());
        assertThat(asItself.code()).as(asItself.body()).isEqualTo(403);
        // As the other node, the one the pod runs on: its token names only its own node.
        EvictionApi.Answer asOtherNode = new KubeEvictionApi(agent, new NodeRef(otherNode), TIMEOUT).evict(ref(theirs));
        assertThat(asOtherNode.code()).isEqualTo(403);
        assertThat(asOtherNode.message()).contains("impersonate");

        for (Pod pod : List.of(mine, theirs)) {
            assertUntouched(cp, pod.getMetadata().getName(), pod.getMetadata().getUid());
        }
    }

    @Test
    void aResizeConditionIsSetAndRemovedOnAPodOfItsNodeOnly(ControlPlane cp) throws Exception {
        Pod pod = runningPod(cp, "resized", Map.of("app", "resized"));
        Pod theirs = runningPod(cp, "resized-elsewhere", Map.of("app", "resized"), otherNode);
        ResizePending pending = new ResizePending("TopologyAffinityError", "budget: cpu 4 → 70: 66 more CPUs");
        try (PodResizeConditions conditions = new PodResizeConditions(agent, new NodeRef(node), TIMEOUT)) {
            conditions.set(ref(pod), Optional.of(pending));
            await(
                    "the condition on resized",
                    () -> resizeCondition(cp, "resized").isPresent());
            PodCondition c = resizeCondition(cp, "resized").orElseThrow();
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getReason()).isEqualTo("Infeasible");
            assertThat(c.getMessage()).isEqualTo("TopologyAffinityError: budget: cpu 4 → 70: 66 more CPUs");
            assertThat(cp.kubectl(
                                    "get",
                                    "pod",
                                    "-n",
                                    NS,
                                    "resized",
                                    "-o",
                                    "jsonpath={.status.conditions[?(@.type==\"podnuma.io/ResizePending\")].reason}")
                            .assertSuccess()
                            .stdout())
                    .isEqualTo("Infeasible");
            assertThat(cp.client()
                            .pods()
                            .inNamespace(NS)
                            .withName("resized")
                            .get()
                            .getStatus()
                            .getPhase())
                    .as("the rest of the status stays")
                    .isEqualTo("Running");

            conditions.set(ref(pod), Optional.empty());
            await(
                    "the condition gone from resized",
                    () -> resizeCondition(cp, "resized").isEmpty());

            ApiRequests.Answer elsewhere = conditions.writeNow(ref(theirs), Optional.of(pending));
            assertThat(elsewhere.code()).as(elsewhere.body()).isEqualTo(403);
            PodRef recreated = new PodRef("another-uid", NS, "resized");
            assertThat(conditions.writeNow(recreated, Optional.of(pending)).code())
                    .as("a pod recreated under the name is not written")
                    .isIn(409, 422);
        }
        assertThat(resizeCondition(cp, "resized-elsewhere")).isEmpty();
        assertThat(resizeCondition(cp, "resized")).isEmpty();
    }

    private static Optional<PodCondition> resizeCondition(ControlPlane cp, String name) {
        return cp.client().pods().inNamespace(NS).withName(name).get().getStatus().getConditions().stream()
                .filter(c -> c.getType().equals(PodResizeConditions.TYPE))
                .findFirst();
    }
}
