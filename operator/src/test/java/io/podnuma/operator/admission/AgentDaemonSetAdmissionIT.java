package io.podnuma.operator.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
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
import io.podnuma.testkit.badinput.BadInput;
import io.podnuma.testkit.badinput.BadInputDoc;
import io.podnuma.testkit.badinput.InputKind;
import io.podnuma.testkit.chart.ChartOperator;
import io.podnuma.testkit.chart.PodnumaChart;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The chart's admission policy on the operator's DaemonSets, on the real API server: as the operator's ServiceAccount,
 * the DaemonSet {@link AgentRender} renders from the settings the chart gives the operator is accepted, and each way
 * of making it something else is refused with its exact text (the catalogue's cases), on create and on update; the
 * cluster admin is not held to it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AgentDaemonSetAdmissionIT {

    private static final InputKind KIND = InputKind.OPERATOR_DAEMONSET;
    private static final String RELEASE = "dsadm";
    private static final String NAMESPACE = "podnuma-dsadm-it";
    private static final String OPERATOR_SA = RELEASE + "-podnuma-operator";
    private static final String POLICY_NAME = OPERATOR_SA + "-daemonsets.podnuma.io";
    private static final String DAEMONSET = AgentRender.objectName("quickstart");
    private static final String REFUSED = "daemonsets.apps \"" + DAEMONSET
            + "\" is forbidden: ValidatingAdmissionPolicy '"
            + POLICY_NAME + "' with binding '" + POLICY_NAME + "' denied request: the podnuma operator may create or"
            + " change only the agent's DaemonSet as the chart configures it: ";
    /** The chart's defaults: of the kubelet's root only its PodResources directory. */
    private static final String AGENT_HOST_PATHS =
            "/sys, /sys/fs/cgroup, /var/lib/podnuma, /var/lib/podnuma/pod-resources,"
                    + " /var/run/nri, /var/lib/kubelet/pod-resources, /var/lib/kubelet/config.yaml";

    private static final String KEPT = "nothing is created; a DaemonSet already there keeps its spec";
    /** What each case does to the DaemonSet the operator renders, by case id. */
    private static final Map<String, UnaryOperator<DaemonSet>> CHANGES = new LinkedHashMap<>();

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private LocalControlPlane plane;
    private DaemonSet rendered;

    static List<BadInput> cases() {
        return List.of(
                c(
                        "ds-privileged",
                        "a privileged agent container",
                        "securityContext: {privileged: true, allowPrivilegeEscalation: true}",
                        AgentDaemonSetAdmissionIT::privileged,
                        "its container may not be privileged"),
                c(
                        "ds-sys-admin",
                        "CAP_SYS_ADMIN for the agent where the chart does not allow cpuset partitions",
                        "securityContext.capabilities.add: [SYS_ADMIN] (agent.cpusetPartitions false)",
                        ds -> withCapability(ds, "SYS_ADMIN"),
                        "its container drops every capability, adds none and may not escalate privileges"),
                c(
                        "ds-host-root",
                        "the host's whole root mounted",
                        "volumes: [{name: host-root, hostPath: {path: /}}], mounted at /host",
                        ds -> new DaemonSetBuilder(ds)
                                .editSpec()
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
                                .build(),
                        "hostPath / is not one of the agent's host paths (" + AGENT_HOST_PATHS + ")"),
                c(
                        "ds-kubelet-root",
                        "the kubelet's whole root instead of its PodResources directory",
                        "the kubelet-pod-resources volume's hostPath: /var/lib/kubelet (its pki/, device-plugins/ and"
                                + " every pod's volumes)",
                        ds -> new DaemonSetBuilder(ds)
                                .editSpec()
                                .editTemplate()
                                .editSpec()
                                .editMatchingVolume(v -> v.getName().equals("kubelet-pod-resources"))
                                .editHostPath()
                                .withPath("/var/lib/kubelet")
                                .endHostPath()
                                .endVolume()
                                .endSpec()
                                .endTemplate()
                                .endSpec()
                                .build(),
                        "hostPath /var/lib/kubelet is not one of the agent's host paths (" + AGENT_HOST_PATHS + ")"),
                c(
                        "ds-other-image",
                        "another image than the agent's",
                        "containers[0].image: example.com/miner:1",
                        ds -> new DaemonSetBuilder(ds)
                                .editSpec()
                                .editTemplate()
                                .editSpec()
                                .editFirstContainer()
                                .withImage("example.com/miner:1")
                                .endContainer()
                                .endSpec()
                                .endTemplate()
                                .endSpec()
                                .build(),
                        "the image is podnuma.local/node-agent:" + chartAppVersion() + ", not example.com/miner:1"),
                c(
                        "ds-other-service-account",
                        "the operator's own ServiceAccount for the pods",
                        "serviceAccountName: " + OPERATOR_SA,
                        ds -> new DaemonSetBuilder(ds)
                                .editSpec()
                                .editTemplate()
                                .editSpec()
                                .withServiceAccountName(OPERATOR_SA)
                                .endSpec()
                                .endTemplate()
                                .endSpec()
                                .build(),
                        "the ServiceAccount is " + RELEASE + "-podnuma-agent"),
                c(
                        "ds-host-pid",
                        "the host's PID namespace",
                        "hostPID: true",
                        ds -> new DaemonSetBuilder(ds)
                                .editSpec()
                                .editTemplate()
                                .editSpec()
                                .withHostPID(true)
                                .endSpec()
                                .endTemplate()
                                .endSpec()
                                .build(),
                        "no host PID or IPC namespace"),
                c(
                        "ds-secret-volume",
                        "a Secret of the namespace mounted",
                        "volumes: [{name: loot, secret: {secretName: somebody-elses}}]",
                        ds -> new DaemonSetBuilder(ds)
                                .editSpec()
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
                                .build(),
                        "volumes are the agent's host paths, its ConfigMap, an emptyDir"),
                c(
                        "ds-init-container",
                        "an init container beside the agent",
                        "initContainers: [{name: first, image: <the agent's>}]",
                        ds -> new DaemonSetBuilder(ds)
                                .editSpec()
                                .editTemplate()
                                .editSpec()
                                .addToInitContainers(new ContainerBuilder()
                                        .withName("first")
                                        .withImage(image(ds))
                                        .build())
                                .endSpec()
                                .endTemplate()
                                .endSpec()
                                .build(),
                        "one container, no init or ephemeral containers"),
                c(
                        "ds-extra-argument",
                        "an argument the chart did not give the agent",
                        "containers[0].args: run --config /etc/podnuma/agent.yaml --log-level trace",
                        ds -> new DaemonSetBuilder(ds)
                                .editSpec()
                                .editTemplate()
                                .editSpec()
                                .editFirstContainer()
                                .addToArgs("--log-level", "trace")
                                .endContainer()
                                .endSpec()
                                .endTemplate()
                                .endSpec()
                                .build(),
                        "its arguments are run --config /etc/podnuma/agent.yaml"),
                c(
                        "ds-env-from-secret",
                        "a variable read from a Secret of the namespace",
                        "containers[0].env: [{name: LOOT, valueFrom: {secretKeyRef: {name: somebody-elses, key: token}}}]",
                        ds -> withEnv(
                                ds,
                                new EnvVarBuilder()
                                        .withName("LOOT")
                                        .withNewValueFrom()
                                        .withNewSecretKeyRef("token", "somebody-elses", null)
                                        .endValueFrom()
                                        .build()),
                        "its environment is PODNUMA_NODE_NAME from spec.nodeName"),
                c(
                        "ds-other-api-server",
                        "the agent sent to another API server (with its token)",
                        "containers[0].env: [{name: KUBERNETES_SERVICE_HOST, value: api.example.com}]",
                        ds -> withEnv(ds, new EnvVar("KUBERNETES_SERVICE_HOST", "api.example.com", null)),
                        "its environment is PODNUMA_NODE_NAME from spec.nodeName"));
    }

    private static DaemonSet withEnv(DaemonSet ds, EnvVar extra) {
        return new DaemonSetBuilder(ds)
                .editSpec()
                .editTemplate()
                .editSpec()
                .editFirstContainer()
                .addToEnv(extra)
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    private static BadInput c(String id, String wrong, String input, UnaryOperator<DaemonSet> change, String answer) {
        CHANGES.put(id, change);
        return BadInput.of(
                id,
                KIND,
                wrong,
                "the agent DaemonSet AgentRender renders, created as the operator's ServiceAccount, with " + input,
                REFUSED + answer,
                KEPT);
    }

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
        rendered = renderedFromTheChartsSettings(NAMESPACE, OPERATOR_SA);
        try (KubernetesClient operator = operator()) {
            // Policies reach the admission chain through informers: probe until a privileged one is refused.
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertThat(refusal(operator, privileged(rendered)))
                            .endsWith("its container may not be privileged"));
        }
    }

    @AfterAll
    void stop() {
        if (plane != null) {
            plane.close();
        }
    }

    @Test
    void theRenderedAgentIsAcceptedFromTheOperator() {
        try (KubernetesClient operator = operator()) {
            DaemonSet created = operator.resource(rendered).dryRun().create();
            assertThat(image(created)).isEqualTo(image(rendered));
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void everyOtherPodIsRefusedWordForWord(BadInput c) {
        try (KubernetesClient operator = operator()) {
            c.assertAnswer(List.of(refusal(operator, CHANGES.get(c.id()).apply(rendered))));
            assertThat(plane.client()
                            .apps()
                            .daemonSets()
                            .inNamespace(NAMESPACE)
                            .withName(DAEMONSET)
                            .get())
                    .as("nothing created")
                    .isNull();
        }
    }

    @Test
    void anAcceptedDaemonSetCannotBeMadePrivilegedLater() {
        DaemonSet ds = new DaemonSetBuilder(rendered)
                .editMetadata()
                .withName("agent-later")
                .endMetadata()
                .build();
        try (KubernetesClient operator = operator()) {
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
                assertThat(e.getStatus().getMessage())
                        .isEqualTo(REFUSED.replace(DAEMONSET, "agent-later") + "its container may not be privileged");
                assertThat(operator.apps()
                                .daemonSets()
                                .inNamespace(NAMESPACE)
                                .withName("agent-later")
                                .get()
                                .getSpec()
                                .getTemplate()
                                .getSpec()
                                .getContainers()
                                .get(0)
                                .getSecurityContext()
                                .getPrivileged())
                        .as("the stored DaemonSet unchanged")
                        .isFalse();
            } finally {
                operator.apps()
                        .daemonSets()
                        .inNamespace(NAMESPACE)
                        .withName("agent-later")
                        .delete();
            }
        }
    }

    /**
     * The agent's extras and API server from the chart (a second release, its own policies): the DaemonSet the operator
     * renders from them is accepted, and the same without one of the chart's arguments is refused.
     */
    @Test
    void theAgentsExtrasFromTheChartAreAllowedExactly() throws IOException {
        String release = "dsextra";
        String namespace = "podnuma-dsextra-it";
        String operatorSa = release + "-podnuma-operator";
        List<String> install = new ArrayList<>(List.of(
                "install",
                release,
                PodnumaChart.dir().toString(),
                "--namespace",
                namespace,
                "--create-namespace",
                "--set",
                "operator.replicas=0,agent.apiServer=10.0.0.1:6443"));
        install.addAll(PodnumaChart.AGENT_EXTRAS_ARGS);
        plane.helm(install.toArray(String[]::new)).assertSuccess();
        try {
            DaemonSet withExtras = renderedFromTheChartsSettings(namespace, operatorSa);
            assertThat(withExtras
                            .getSpec()
                            .getTemplate()
                            .getSpec()
                            .getContainers()
                            .get(0)
                            .getArgs())
                    .containsExactly("run", "--config", "/etc/podnuma/agent.yaml", "--log-level", "debug");
            assertThat(withExtras.getSpec().getTemplate().getSpec().getAffinity())
                    .isNotNull();
            try (KubernetesClient operator =
                    AgentTokens.clientWithToken(plane, AgentTokens.unboundToken(plane, namespace, operatorSa))) {
                DaemonSet fewerArgs = new DaemonSetBuilder(withExtras)
                        .editSpec()
                        .editTemplate()
                        .editSpec()
                        .editFirstContainer()
                        .withArgs("run", "--config", "/etc/podnuma/agent.yaml")
                        .endContainer()
                        .endSpec()
                        .endTemplate()
                        .endSpec()
                        .build();
                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(500))
                        .untilAsserted(() -> assertThat(refusal(operator, fewerArgs))
                                .endsWith("its arguments are run --config /etc/podnuma/agent.yaml --log-level debug"));
                DaemonSet created = operator.resource(withExtras).dryRun().create();
                assertThat(created.getSpec()
                                .getTemplate()
                                .getSpec()
                                .getContainers()
                                .get(0)
                                .getEnv())
                        .extracting(e -> e.getName())
                        .containsExactly(
                                "PODNUMA_NODE_NAME",
                                "KUBERNETES_SERVICE_HOST",
                                "KUBERNETES_SERVICE_PORT",
                                "JAVA_TOOL_OPTIONS",
                                "EMPTY");
            }
        } finally {
            plane.helm("uninstall", release, "--namespace", namespace).assertSuccess();
        }
    }

    /**
     * {@code agent.cpusetPartitions} (a second release): the DaemonSet of a policy with partitions gets {@code
     * SYS_ADMIN} and is accepted; another capability in its place is refused, naming the one allowed.
     */
    @Test
    void cpusetPartitionsFromTheChartAllowSysAdminAndNothingElse() throws IOException {
        String release = "dspart";
        String namespace = "podnuma-dspart-it";
        String operatorSa = release + "-podnuma-operator";
        plane.helm(
                        "install",
                        release,
                        PodnumaChart.dir().toString(),
                        "--namespace",
                        namespace,
                        "--create-namespace",
                        "--set",
                        "operator.replicas=0,agent.cpusetPartitions=true")
                .assertSuccess();
        try {
            DaemonSet partitions = renderedFromTheChartsSettings(namespace, operatorSa, "numa-aligned");
            assertThat(partitions
                            .getSpec()
                            .getTemplate()
                            .getSpec()
                            .getContainers()
                            .get(0)
                            .getSecurityContext()
                            .getCapabilities()
                            .getAdd())
                    .containsExactly("SYS_ADMIN");
            try (KubernetesClient operator =
                    AgentTokens.clientWithToken(plane, AgentTokens.unboundToken(plane, namespace, operatorSa))) {
                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(500))
                        .untilAsserted(() -> assertThat(refusal(operator, withCapability(partitions, "NET_ADMIN")))
                                .endsWith("its container drops every capability, adds none but SYS_ADMIN"
                                        + " (agent.cpusetPartitions) and may not escalate privileges"));
                operator.resource(partitions).dryRun().create();
            }
        } finally {
            plane.helm("uninstall", release, "--namespace", namespace).assertSuccess();
        }
    }

    @Test
    void theClusterAdminIsNotHeldToIt() {
        plane.client().resource(privileged(rendered)).dryRun().create();
    }

    @Test
    void theDocIsUpToDate() {
        assertThat(BadInputDoc.check(KIND, cases(), "operator", getClass().getSimpleName()))
                .isNull();
    }

    /** The quickstart policy's DaemonSet as the operator renders it from the settings file the chart installed. */
    private DaemonSet renderedFromTheChartsSettings(String namespace, String operatorConfigMap) throws IOException {
        return renderedFromTheChartsSettings(namespace, operatorConfigMap, "quickstart");
    }

    /** The DaemonSet of {@code crds/examples/<example>.yaml} as the operator renders it from the chart's settings. */
    private DaemonSet renderedFromTheChartsSettings(String namespace, String operatorConfigMap, String example)
            throws IOException {
        String settingsText = plane.client()
                .configMaps()
                .inNamespace(namespace)
                .withName(operatorConfigMap)
                .get()
                .getData()
                .get(ChartOperator.SETTINGS_KEY);
        OperatorSettings settings =
                OperatorSettingsLoader.parse(settingsText, ChartOperator.SETTINGS_KEY, Map.of(), Map.of());
        NumaResourcePolicy policy = YAML.readValue(
                Files.readString(Repository.resolve("crds/examples/" + example + ".yaml")), NumaResourcePolicy.class);
        return AgentRender.render("quickstart", policy.getSpec(), settings.rollout())
                .daemonSet();
    }

    private KubernetesClient operator() {
        return AgentTokens.clientWithToken(plane, AgentTokens.unboundToken(plane, NAMESPACE, OPERATOR_SA));
    }

    private static String image(DaemonSet ds) {
        return ds.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
    }

    /** The chart's appVersion: the agent image's tag when the values name none. */
    private static String chartAppVersion() {
        try {
            return YAML.readTree(PodnumaChart.dir().resolve("Chart.yaml").toFile())
                    .get("appVersion")
                    .asText();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
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

    /** {@code ds} with {@code capability} added to its container's. */
    static DaemonSet withCapability(DaemonSet ds, String capability) {
        DaemonSet copy = new DaemonSetBuilder(ds).build();
        copy.getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getSecurityContext()
                .getCapabilities()
                .setAdd(List.of(capability));
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
