package io.podnuma.operator.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.operator.render.AgentRender;
import io.podnuma.operator.settings.OperatorSettings;
import io.podnuma.operator.settings.OperatorSettingsLoader;
import io.podnuma.testkit.Repository;
import io.podnuma.testkit.agent.AgentTokens;
import io.podnuma.testkit.chart.ChartOperator;
import io.podnuma.testkit.chart.PodnumaChart;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The chart's admission policy on the operator's DaemonSets, on the real API server: as the operator's ServiceAccount,
 * the DaemonSet {@link AgentRender} renders from the settings the chart gives the operator is accepted, and each way
 * of making it something else (privileged, a host path of the whole root, another image, ServiceAccount, the host's PID
 * namespace, a Secret, an init container) is refused with its exact text, on create and on update; the cluster admin
 * is not held to it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AgentDaemonSetAdmissionIT {

    private static final String RELEASE = "dsadm";
    private static final String NAMESPACE = "podnuma-dsadm-it";
    private static final String OPERATOR_SA = RELEASE + "-podnuma-operator";
    private static final String POLICY_NAME = OPERATOR_SA + "-daemonsets.podnuma.io";
    private static final String REFUSED = "ValidatingAdmissionPolicy '" + POLICY_NAME + "' with binding '" + POLICY_NAME
            + "' denied request: the podnuma operator may create or change only the agent's DaemonSet as the chart"
            + " configures it: ";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private LocalControlPlane plane;
    private DaemonSet rendered;

    @BeforeAll
    void install() throws IOException {
        // A plane of its own that allows privileged containers: elsewhere the API server refuses them before any
        // admission policy sees them. Its own, too, because the chart's policies are cluster-scoped.
        plane = LocalControlPlane.startApartAllowingPrivileged("dsadm-plane");
        plane.helm(
                        "install",
                        RELEASE,
                        PodnumaChart.dir().toString(),
                        "--namespace",
                        NAMESPACE,
                        "--create-namespace",
                        "--set",
                        "operator.replicas=0")
                .assertSuccess();
        String settingsText = plane.client()
                .configMaps()
                .inNamespace(NAMESPACE)
                .withName(OPERATOR_SA)
                .get()
                .getData()
                .get(ChartOperator.SETTINGS_KEY);
        OperatorSettings settings =
                OperatorSettingsLoader.parse(settingsText, ChartOperator.SETTINGS_KEY, Map.of(), Map.of());
        NumaResourcePolicy quickstart = YAML.readValue(
                Files.readString(Repository.resolve("crds/examples/quickstart.yaml")), NumaResourcePolicy.class);
        rendered = AgentRender.render("quickstart", quickstart.getSpec(), settings.rollout())
                .daemonSet();
    }

    @AfterAll
    void stop() {
        if (plane != null) {
            plane.close();
        }
    }

    @Test
    void theRenderedAgentIsAcceptedAndEveryOtherPodRefused() {
        try (KubernetesClient operator = operator()) {
            // Policies reach the admission chain through informers: probe until a privileged one is refused.
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertThat(refusal(operator, privileged()))
                            .endsWith(REFUSED + "its container may not be privileged"));
            operator.resource(rendered).dryRun().create();

            assertThat(refusal(operator, privileged()))
                    .isEqualTo("daemonsets.apps \"" + rendered.getMetadata().getName() + "\" is forbidden: " + REFUSED
                            + "its container may not be privileged");
            assertThat(refusal(operator, hostRoot()))
                    .endsWith(REFUSED + "hostPath / is not one of the agent's host paths (/sys, /sys/fs/cgroup,"
                            + " /var/lib/podnuma, /var/lib/podnuma/pod-resources, /var/run/nri, /var/lib/kubelet,"
                            + " /var/lib/kubelet/config.yaml)");
            assertThat(refusal(
                            operator,
                            edit(ds -> ds.editSpec()
                                    .editTemplate()
                                    .editSpec()
                                    .editFirstContainer()
                                    .withImage("example.com/miner:1")
                                    .endContainer()
                                    .endSpec()
                                    .endTemplate()
                                    .endSpec()
                                    .build())))
                    .endsWith(REFUSED + "the image is " + image() + ", not example.com/miner:1");
            assertThat(refusal(
                            operator,
                            edit(ds -> ds.editSpec()
                                    .editTemplate()
                                    .editSpec()
                                    .withServiceAccountName(OPERATOR_SA)
                                    .endSpec()
                                    .endTemplate()
                                    .endSpec()
                                    .build())))
                    .endsWith(REFUSED + "the ServiceAccount is " + RELEASE + "-podnuma-agent");
            assertThat(refusal(
                            operator,
                            edit(ds -> ds.editSpec()
                                    .editTemplate()
                                    .editSpec()
                                    .withHostPID(true)
                                    .endSpec()
                                    .endTemplate()
                                    .endSpec()
                                    .build())))
                    .endsWith(REFUSED + "no host PID or IPC namespace");
            assertThat(refusal(
                            operator,
                            edit(ds -> ds.editSpec()
                                    .editTemplate()
                                    .editSpec()
                                    .addToVolumes(new VolumeBuilder()
                                            .withName("loot")
                                            .withNewSecret()
                                            .withSecretName("somebody-elses")
                                            .endSecret()
                                            .build())
                                    .endSpec()
                                    .endTemplate()
                                    .endSpec()
                                    .build())))
                    .endsWith(REFUSED + "volumes are the agent's host paths, its ConfigMap, an emptyDir");
            assertThat(refusal(
                            operator,
                            edit(ds -> ds.editSpec()
                                    .editTemplate()
                                    .editSpec()
                                    .addToInitContainers(new ContainerBuilder()
                                            .withName("first")
                                            .withImage(image())
                                            .build())
                                    .endSpec()
                                    .endTemplate()
                                    .endSpec()
                                    .build())))
                    .endsWith(REFUSED + "one container, no init or ephemeral containers");
        }
    }

    @Test
    void anAcceptedDaemonSetCannotBeMadePrivilegedLater() {
        DaemonSet ds =
                edit(b -> b.editMetadata().withName("agent-later").endMetadata().build());
        try (KubernetesClient operator = operator()) {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertThat(refusal(operator, privileged()))
                            .endsWith("its container may not be privileged"));
            operator.resource(ds).create();
            try {
                KubernetesClientException e = catchThrowableOfType(
                        KubernetesClientException.class,
                        () -> operator.apps()
                                .daemonSets()
                                .inNamespace(NAMESPACE)
                                .withName("agent-later")
                                .edit(AgentDaemonSetAdmissionIT::privileged));
                assertThat(e).as("the update to privileged refused").isNotNull();
                assertThat(e.getCode()).isEqualTo(403);
                assertThat(e.getStatus().getMessage()).endsWith(REFUSED + "its container may not be privileged");
            } finally {
                operator.apps()
                        .daemonSets()
                        .inNamespace(NAMESPACE)
                        .withName("agent-later")
                        .delete();
            }
        }
    }

    @Test
    void theClusterAdminIsNotHeldToIt() {
        plane.client().resource(privileged()).dryRun().create();
    }

    private KubernetesClient operator() {
        return AgentTokens.clientWithToken(plane, AgentTokens.unboundToken(plane, NAMESPACE, OPERATOR_SA));
    }

    private String image() {
        return rendered.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
    }

    private DaemonSet privileged() {
        return privileged(rendered);
    }

    /** The rendered DaemonSet with a volume of the host's whole root mounted at /host. */
    private DaemonSet hostRoot() {
        return edit(ds -> ds.editSpec()
                .editTemplate()
                .editSpec()
                .addToVolumes(new VolumeBuilder()
                        .withName("host-root")
                        .withNewHostPath()
                        .withPath("/")
                        .endHostPath()
                        .build())
                .editFirstContainer()
                .addNewVolumeMount()
                .withName("host-root")
                .withMountPath("/host")
                .endVolumeMount()
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build());
    }

    private DaemonSet edit(Function<DaemonSetBuilder, DaemonSet> change) {
        return change.apply(new DaemonSetBuilder(rendered));
    }

    /** {@code ds} with its container privileged (and allowed to escalate: the API server refuses one without). */
    private static DaemonSet privileged(DaemonSet ds) {
        DaemonSet copy = new DaemonSetBuilder(ds).build();
        SecurityContext context =
                copy.getSpec().getTemplate().getSpec().getContainers().get(0).getSecurityContext();
        context.setPrivileged(true);
        context.setAllowPrivilegeEscalation(true);
        return copy;
    }

    /** The API server's message refusing {@code ds} created (dry run) as {@code client}, or a failure if accepted. */
    private static String refusal(KubernetesClient client, DaemonSet ds) {
        KubernetesClientException e = catchThrowableOfType(
                KubernetesClientException.class,
                () -> client.resource(ds).dryRun().create());
        assertThat(e).as("refused: %s", ds.getSpec().getTemplate().getSpec()).isNotNull();
        assertThat(e.getCode()).isEqualTo(403);
        return e.getStatus().getMessage();
    }
}
