package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** kwok nodes behave like kubelets: Ready nodes, Running pods with container IDs, completed Jobs, deletions. */
@ExtendWith(ControlPlaneExtension.class)
class KwokNodesIT {

    private static final String NAMESPACE = "kwok-it";
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @BeforeAll
    static void nodesAndNamespace(ControlPlane plane) {
        plane.ensureNodes(2);
        plane.ensureNamespace(NAMESPACE);
    }

    /**
     * kwok dies now and then right after a start (a data race in its CEL set-up): the next test that needs nodes gets
     * it started again, and a new node is served, where it used to fail with kwok's exit.
     */
    @Test
    void kwokThatExitedByItselfIsStartedAgainForTheNextTest(ControlPlane plane) throws Exception {
        LocalControlPlane local = (LocalControlPlane) plane;
        ProcessHandle kwok = local.process("kwok");
        kwok.destroyForcibly();
        kwok.onExit().get(30, TimeUnit.SECONDS);

        String node = plane.ensureNode("kwok-relaunch-it", Map.of(), Map.of("cpu", "2", "memory", "4Gi", "pods", "10"));

        assertThat(plane.client().nodes().withName(node).get().getStatus().getConditions())
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        assertThat(local.process("kwok").pid()).isNotEqualTo(kwok.pid());
        assertThat(local.logDir().resolve("kwok.log"))
                .content()
                .contains("$ (again, the previous run exited with 137)");
    }

    private static PodSpec twoContainers(String restartPolicy) {
        return new PodSpecBuilder()
                .addNewContainer()
                .withName("app")
                .withImage("registry.k8s.io/pause:3.10")
                .endContainer()
                .addNewContainer()
                .withName("sidecar")
                .withImage("registry.k8s.io/pause:3.10")
                .endContainer()
                .withRestartPolicy(restartPolicy)
                .build();
    }

    /** Other tests here add nodes; pin the DaemonSet to the two it is about. */
    private static PodSpec onNodes(PodSpec spec, String... nodes) {
        return new PodSpecBuilder(spec)
                .withNewAffinity()
                .withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm()
                .addNewMatchExpression()
                .withKey("kubernetes.io/hostname")
                .withOperator("In")
                .withValues(nodes)
                .endMatchExpression()
                .endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity()
                .endAffinity()
                .build();
    }

    @Test
    void ensureNodesCreatesReadyUntaintedNodesWithAllocatableResources(ControlPlane plane) {
        List<String> names = plane.ensureNodes(2);
        assertThat(names).containsExactly("kwok-node-0", "kwok-node-1");
        for (String name : names) {
            Node node = plane.client().nodes().withName(name).get();
            assertThat(KwokNodes.schedulable(node))
                    .as(name + " Ready and untainted")
                    .isTrue();
            assertThat(node.getStatus().getAllocatable().get("cpu").toString()).isEqualTo("32");
            assertThat(node.getStatus().getNodeInfo().getKubeletVersion()).startsWith("kwok-");
            assertThat(node.getMetadata().getLabels()).containsEntry(KwokNodes.KWOK_LABEL, "true");
        }
        // Asking again for fewer nodes is idempotent and creates nothing new.
        assertThat(plane.ensureNodes(1)).containsExactly("kwok-node-0");
        assertThat(plane.client()
                        .nodes()
                        .withLabel(KwokNodes.KWOK_LABEL, "true")
                        .list()
                        .getItems())
                .hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void daemonSetGetsOneRunningPodPerNodeWithStableContainerIds(ControlPlane plane) {
        KubernetesClient client = plane.client();
        Map<String, String> labels = Map.of("app", "ds-it");
        client.resource(new DaemonSetBuilder()
                        .withNewMetadata()
                        .withName("ds-it")
                        .withNamespace(NAMESPACE)
                        .endMetadata()
                        .withNewSpec()
                        .withNewSelector()
                        .withMatchLabels(labels)
                        .endSelector()
                        .withNewTemplate()
                        .withNewMetadata()
                        .withLabels(labels)
                        .endMetadata()
                        .withSpec(onNodes(twoContainers("Always"), "kwok-node-0", "kwok-node-1"))
                        .endTemplate()
                        .endSpec()
                        .build())
                .create();

        await().atMost(TIMEOUT)
                .untilAsserted(() -> assertThat(runningPods(client, labels))
                        .extracting(p -> p.getSpec().getNodeName())
                        .containsExactlyInAnyOrder("kwok-node-0", "kwok-node-1"));

        List<Pod> pods = runningPods(client, labels);
        for (Pod pod : pods) {
            assertThat(pod.getStatus().getContainerStatuses()).hasSize(2).allSatisfy(status -> {
                assertThat(status.getReady()).isTrue();
                assertThat(status.getState().getRunning()).isNotNull();
                assertThat(status.getContainerID())
                        .isEqualTo(expectedContainerId(pod.getMetadata().getUid(), status.getName()));
            });
            assertThat(pod.getStatus().getPodIP()).startsWith("10.244.");
        }
        assertThat(pods.stream()
                        .flatMap(p -> p.getStatus().getContainerStatuses().stream())
                        .map(ContainerStatus::getContainerID)
                        .distinct())
                .hasSize(4);

        // The DaemonSet controller sees its pods as available, as it would with real kubelets.
        await().atMost(TIMEOUT)
                .until(() -> Integer.valueOf(2)
                        .equals(client.apps()
                                .daemonSets()
                                .inNamespace(NAMESPACE)
                                .withName("ds-it")
                                .get()
                                .getStatus()
                                .getNumberReady()));
    }

    @Test
    void deletedPodsGoAwayAndJobPodsComplete(ControlPlane plane) {
        KubernetesClient client = plane.client();
        client.resource(new JobBuilder()
                        .withNewMetadata()
                        .withName("job-it")
                        .withNamespace(NAMESPACE)
                        .endMetadata()
                        .withNewSpec()
                        .withBackoffLimit(0)
                        .withNewTemplate()
                        .withSpec(twoContainers("Never"))
                        .endTemplate()
                        .endSpec()
                        .build())
                .create();
        await().atMost(TIMEOUT).untilAsserted(() -> {
            var status = client.batch()
                    .v1()
                    .jobs()
                    .inNamespace(NAMESPACE)
                    .withName("job-it")
                    .get()
                    .getStatus();
            assertThat(status.getSucceeded()).isEqualTo(1);
        });
        Pod finished = client.pods()
                .inNamespace(NAMESPACE)
                .withLabel("job-name", "job-it")
                .list()
                .getItems()
                .get(0);
        assertThat(finished.getStatus().getPhase()).isEqualTo("Succeeded");
        assertThat(finished.getStatus().getContainerStatuses()).allSatisfy(status -> {
            assertThat(status.getState().getTerminated().getExitCode()).isZero();
            assertThat(status.getContainerID())
                    .isEqualTo(expectedContainerId(finished.getMetadata().getUid(), status.getName()));
        });

        Pod bare = client.resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("bare-it")
                        .withNamespace(NAMESPACE)
                        .endMetadata()
                        .withSpec(twoContainers("Always"))
                        .build())
                .create();
        await().atMost(TIMEOUT)
                .until(() -> "Running"
                        .equals(client.pods()
                                .inNamespace(NAMESPACE)
                                .withName(bare.getMetadata().getName())
                                .get()
                                .getStatus()
                                .getPhase()));
        client.pods().inNamespace(NAMESPACE).withName("bare-it").delete();
        await().atMost(TIMEOUT)
                .until(() ->
                        client.pods().inNamespace(NAMESPACE).withName("bare-it").get() == null);
    }

    @Test
    void ensureNodeGivesANodeItsOwnLabelsAndResources(ControlPlane plane) {
        Map<String, String> resources = Map.of("cpu", "96", "memory", "384Gi", "pods", "110");
        assertThat(plane.ensureNode("kwok-numa-0", Map.of("pool", "numa"), resources))
                .isEqualTo("kwok-numa-0");
        Node node = plane.client().nodes().withName("kwok-numa-0").get();
        assertThat(KwokNodes.schedulable(node)).isTrue();
        assertThat(node.getMetadata().getLabels())
                .containsEntry("pool", "numa")
                .containsEntry(KwokNodes.KWOK_LABEL, "true");
        assertThat(node.getStatus().getAllocatable().get("cpu").toString()).isEqualTo("96");
        assertThat(node.getStatus().getCapacity().get("memory").toString()).isEqualTo("384Gi");
        // Idempotent: the existing node is kept as it is.
        assertThat(plane.ensureNode("kwok-numa-0", Map.of("pool", "other"), resources))
                .isEqualTo("kwok-numa-0");
        assertThat(plane.client()
                        .nodes()
                        .withName("kwok-numa-0")
                        .get()
                        .getMetadata()
                        .getLabels())
                .containsEntry("pool", "numa");
    }

    /**
     * What podnuma relies on: the API server keeps pod-level resources (a disabled feature gate would drop
     * the field silently), the scheduler honours a node selector, and sidecars (restartable init
     * containers) report running with their own container IDs.
     */
    @Test
    void podLevelResourcesAndSidecarsSurviveTheRoundTrip(ControlPlane plane) {
        plane.ensureNode("kwok-numa-0", Map.of("pool", "numa"), Map.of("cpu", "96", "memory", "384Gi", "pods", "110"));
        KubernetesClient client = plane.client();
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName("pod-level-it")
                .withNamespace(NAMESPACE)
                .endMetadata()
                .withNewSpec()
                .withNodeSelector(Map.of("pool", "numa"))
                .withNewResources()
                .addToRequests("cpu", new Quantity("4"))
                .addToRequests("memory", new Quantity("2Gi"))
                .addToLimits("cpu", new Quantity("4"))
                .addToLimits("memory", new Quantity("2Gi"))
                .endResources()
                .addNewInitContainer()
                .withName("proxy")
                .withImage("registry.k8s.io/pause:3.10")
                .withRestartPolicy("Always")
                .endInitContainer()
                .addNewContainer()
                .withName("engine")
                .withImage("registry.k8s.io/pause:3.10")
                .withNewResources()
                .addToRequests("cpu", new Quantity("2"))
                .addToLimits("cpu", new Quantity("2"))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
        client.resource(pod).create();

        await().atMost(TIMEOUT)
                .until(() -> "Running"
                        .equals(client.pods()
                                .inNamespace(NAMESPACE)
                                .withName("pod-level-it")
                                .get()
                                .getStatus()
                                .getPhase()));
        Pod running =
                client.pods().inNamespace(NAMESPACE).withName("pod-level-it").get();
        assertThat(running.getSpec().getNodeName()).isEqualTo("kwok-numa-0");
        assertThat(running.getSpec().getResources().getLimits())
                .containsEntry("cpu", new Quantity("4"))
                .containsEntry("memory", new Quantity("2Gi"));
        assertThat(running.getStatus().getQosClass()).isEqualTo("Guaranteed");
        assertThat(running.getStatus().getInitContainerStatuses())
                .singleElement()
                .satisfies(sidecar -> {
                    assertThat(sidecar.getState().getRunning()).isNotNull();
                    assertThat(sidecar.getContainerID())
                            .isEqualTo(expectedContainerId(running.getMetadata().getUid(), "proxy"));
                });
        assertThat(running.getStatus().getContainerStatuses())
                .singleElement()
                .satisfies(engine -> assertThat(engine.getContainerID())
                        .isEqualTo(expectedContainerId(running.getMetadata().getUid(), "engine")));
    }

    private static List<Pod> runningPods(KubernetesClient client, Map<String, String> labels) {
        return client.pods().inNamespace(NAMESPACE).withLabels(labels).list().getItems().stream()
                .filter(p -> "Running".equals(p.getStatus().getPhase()))
                .toList();
    }

    /** What the stage file promises: containerd:// and sha256 of "<pod uid>/<container name>". */
    private static String expectedContainerId(String podUid, String container) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((podUid + "/" + container).getBytes(StandardCharsets.UTF_8));
            return "containerd://" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
