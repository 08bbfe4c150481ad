package io.podnuma.agent.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Events and evictions against the real kube-apiserver, with pods made Running by kwok. The agent side talks as a
 * service account holding exactly the RBAC rules {@link #AGENT_RULES} that the chart will grant.
 */
@ExtendWith(ControlPlaneExtension.class)
class EventsAndEvictionIT {

    /** The agent's rules for this package: Events (create, patch), evictions, and reading the pod it evicts. */
    static final List<io.fabric8.kubernetes.api.model.rbac.PolicyRule> AGENT_RULES = List.of(
            new PolicyRuleBuilder()
                    .withApiGroups("")
                    .withResources("events")
                    .withVerbs("create", "patch")
                    .build(),
            new PolicyRuleBuilder()
                    .withApiGroups("")
                    .withResources("pods/eviction")
                    .withVerbs("create")
                    .build(),
            new PolicyRuleBuilder()
                    .withApiGroups("")
                    .withResources("pods")
                    .withVerbs("get")
                    .build());

    static final String SUFFIX = UUID.randomUUID().toString().substring(0, 6);
    static final String NS = "events-it-" + SUFFIX;
    static final String ROLE = "podnuma-agent-events-it-" + SUFFIX;
    static final String SA = "podnuma-agent";
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    static String node;
    static KubernetesClient agent;

    @BeforeAll
    static void setUp(ControlPlane cp) {
        node = cp.ensureNode("events-it-" + SUFFIX, Map.of(), Map.of("cpu", "16", "memory", "64Gi", "pods", "110"));
        cp.client()
                .namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(NS)
                        .endMetadata()
                        .build())
                .create();
        cp.client()
                .rbac()
                .clusterRoles()
                .resource(new ClusterRoleBuilder()
                        .withNewMetadata()
                        .withName(ROLE)
                        .endMetadata()
                        .withRules(AGENT_RULES)
                        .build())
                .create();
        cp.client()
                .rbac()
                .clusterRoleBindings()
                .resource(new ClusterRoleBindingBuilder()
                        .withNewMetadata()
                        .withName(ROLE)
                        .endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", ROLE)
                        .addNewSubject()
                        .withKind("ServiceAccount")
                        .withNamespace(NS)
                        .withName(SA)
                        .endSubject()
                        .build())
                .create();
        agent = cp.clientFor(NS, SA);
    }

    @AfterAll
    static void tearDown(ControlPlane cp) {
        if (agent != null) {
            agent.close();
        }
        cp.client().rbac().clusterRoleBindings().withName(ROLE).delete();
        cp.client().rbac().clusterRoles().withName(ROLE).delete();
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
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withNamespace(NS)
                .withName(name)
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
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

        try (KubeEventRecorder recorder = KubeEventRecorder.start(agent, node, fastRecorder());
                PodEvictor evictor = new PodEvictor(agent, recorder, fastEvictor(3))) {
            EvictionResult result = evictor.evict(ref, "TopologyAffinityError: no NUMA node has 6 free CPUs")
                    .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            assertThat(result).isEqualTo(new EvictionResult.Evicted(ref));
            assertThat(recorder.awaitIdle(TIMEOUT)).isTrue();
        }
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

        try (KubeEventRecorder recorder = KubeEventRecorder.start(agent, node, fastRecorder());
                PodEvictor evictor = new PodEvictor(agent, recorder, fastEvictor(3))) {
            EvictionResult result =
                    evictor.evict(ref, "TopologyAffinityError").get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            assertThat(result).isInstanceOfSatisfying(EvictionResult.Blocked.class, b -> {
                assertThat(b.attempts()).isEqualTo(3);
                assertThat(b.message()).contains("disruption budget");
            });
            assertThat(recorder.awaitIdle(TIMEOUT)).isTrue();
        }
        Pod after = cp.client().pods().inNamespace(NS).withName("guarded").get();
        assertThat(after).isNotNull();
        assertThat(after.getMetadata().getUid()).isEqualTo(ref.uid());
        assertThat(after.getMetadata().getDeletionTimestamp()).isNull();
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

        try (KubeEventRecorder recorder = KubeEventRecorder.start(agent, node, fastRecorder());
                PodEvictor evictor = new PodEvictor(agent, recorder, fastEvictor(3))) {
            EvictionResult result = evictor.evict(old, "stale decision").get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            assertThat(result)
                    .isInstanceOfSatisfying(
                            EvictionResult.AlreadyGone.class,
                            g -> assertThat(g.detail())
                                    .contains("is now a different pod (uid "
                                            + second.getMetadata().getUid()));
        }
        // The UID precondition on the Eviction itself also protects the new pod when the read races a recreation.
        EvictionApi.Answer raced = new KubeEvictionApi(agent, Duration.ofSeconds(20)).evict(old);
        assertThat(raced.code()).isEqualTo(409);
        assertThat(raced.message()).contains(old.uid());

        Pod still = cp.client().pods().inNamespace(NS).withName("reborn").get();
        assertThat(still).isNotNull();
        assertThat(still.getMetadata().getUid()).isEqualTo(second.getMetadata().getUid());
        assertThat(still.getMetadata().getDeletionTimestamp()).isNull();
    }
}
