package io.podnuma.operator.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.podnuma.crds.agent.v1alpha1.LogLevel;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfig;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfigYaml;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.crds.v1alpha1.policy.CpuManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.PodLevelResources;
import io.podnuma.crds.v1alpha1.policy.PolicyHash;
import io.podnuma.crds.v1alpha1.policy.TopologyManager;
import io.podnuma.crds.v1alpha1.policy.TopologyManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.TopologyManagerScope;
import io.podnuma.crds.v1alpha1.policy.validation.PolicyValidator;
import io.podnuma.logging.LogFormat;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class AgentRenderTest {

    private static final AgentRollout ROLLOUT = AgentRollout.defaults("podnuma.local/node-agent:1");

    private static NumaResourcePolicySpec spec(String reservedCpus, Map<String, String> selector, Integer priority) {
        return new NumaResourcePolicySpec(
                new LabelSelectorBuilder().withMatchLabels(selector).build(),
                priority,
                new TopologyManager(TopologyManagerPolicy.SINGLE_NUMA_NODE, TopologyManagerScope.POD, null),
                new CpuManager(CpuManagerPolicy.STATIC, reservedCpus, null, null, null),
                null,
                new PodLevelResources(true, null),
                AdmissionAction.WARN,
                false);
    }

    private static final NumaResourcePolicySpec SPEC = spec("0", Map.of("pool", "trading"), 10);

    @Test
    void theConfigFileIsTheAgentsFileWithTheContainersPathsAndThePolicyWithoutItsSelector() {
        RenderedAgent r = AgentRender.render("low-latency", SPEC, ROLLOUT);
        String file = r.configMap().getData().get(AgentRender.CONFIG_KEY);
        NodeAgentConfig config = NodeAgentConfigYaml.read(file);
        assertThat(config.nodeName()).as("from the downward API").isNull();
        assertThat(config.policyName()).isEqualTo("low-latency");
        assertThat(config.sysfsRoot()).isEqualTo("/host/sys");
        assertThat(config.cgroupRoot()).isEqualTo("/host/cgroup");
        assertThat(config.stateDir()).isEqualTo("/var/lib/podnuma");
        assertThat(config.podResourcesSocket()).isEqualTo("/run/podnuma/pod-resources/podnuma.sock");
        assertThat(config.kubeletCheckSocket()).isEqualTo("/host/kubelet-pod-resources/kubelet.sock");
        assertThat(config.kubeletPodResourcesSocket())
                .as("the devices the kubelet gave, from the same socket")
                .isEqualTo("/host/kubelet-pod-resources/kubelet.sock");
        assertThat(config.kubeletConfigFile()).isEqualTo("/host/kubelet-config/config.yaml");
        assertThat(config.metricsPort()).isEqualTo(9464);
        assertThat(config.healthPort()).isEqualTo(8081);
        assertThat(config.reconcilePeriod()).as("the agent's default").isNull();
        assertThat(config.policy().nodeSelector()).isNull();
        assertThat(config.policy().priority())
                .as("the default, not the policy's 10")
                .isZero();
        assertThat(config.policy().cpuManager()).isEqualTo(SPEC.cpuManager());
        assertThat(PolicyValidator.validate(config.policy(), "policy")).isEmpty();
        assertThat(r.policyHash()).isEqualTo(PolicyHash.of(config.policy()));
    }

    @Test
    void everyPathInTheFileIsAMountOfTheRightHostPath() {
        RenderedAgent r = AgentRender.render("low-latency", SPEC, ROLLOUT);
        PodSpec pod = r.daemonSet().getSpec().getTemplate().getSpec();
        Container agent = pod.getContainers().getFirst();
        Map<String, VolumeMount> mounts =
                agent.getVolumeMounts().stream().collect(Collectors.toMap(VolumeMount::getMountPath, m -> m));
        Map<String, Volume> volumes = pod.getVolumes().stream().collect(Collectors.toMap(Volume::getName, v -> v));
        assertThat(hostPathAt(mounts, volumes, "/host/sys")).isEqualTo("/sys");
        assertThat(mounts.get("/host/sys").getReadOnly()).isTrue();
        assertThat(hostPathAt(mounts, volumes, "/host/cgroup")).isEqualTo("/sys/fs/cgroup");
        assertThat(mounts.get("/host/cgroup").getReadOnly())
                .as("the agent writes cpusets")
                .isNull();
        assertThat(hostPathAt(mounts, volumes, "/var/lib/podnuma")).isEqualTo("/var/lib/podnuma");
        assertThat(hostPathAt(mounts, volumes, "/run/podnuma/pod-resources"))
                .as("the socket stays where it always was on the node")
                .isEqualTo("/var/lib/podnuma/pod-resources");
        assertThat(volumes.get(mounts.get("/run/podnuma/pod-resources").getName())
                        .getHostPath()
                        .getType())
                .isEqualTo("DirectoryOrCreate");
        assertThat(mounts.get("/run/podnuma/pod-resources").getReadOnly())
                .as("the agent makes its socket there")
                .isNull();
        assertThat(hostPathAt(mounts, volumes, "/host/kubelet-pod-resources"))
                .as("of the kubelet's root only its PodResources socket directory")
                .isEqualTo("/var/lib/kubelet/pod-resources");
        assertThat(volumes.get(mounts.get("/host/kubelet-pod-resources").getName())
                        .getHostPath()
                        .getType())
                .as("the kubelet makes it; the agent never does")
                .isEqualTo("Directory");
        assertThat(mounts.get("/host/kubelet-pod-resources").getReadOnly()).isTrue();
        assertThat(volumes.values())
                .as("no mount of the kubelet's root or anything above its PodResources directory")
                .filteredOn(v -> v.getHostPath() != null)
                .extracting(v -> v.getHostPath().getPath())
                .noneMatch(p -> "/var/lib/kubelet/pod-resources".startsWith(p + "/") || p.equals("/var/lib/kubelet"))
                .noneMatch(
                        p -> p.startsWith("/var/lib/kubelet/pki") || p.startsWith("/var/lib/kubelet/device-plugins"));
        assertThat(hostPathAt(mounts, volumes, "/host/kubelet-config/config.yaml"))
                .isEqualTo("/var/lib/kubelet/config.yaml");
        assertThat(volumes.get(mounts.get("/etc/podnuma").getName())
                        .getConfigMap()
                        .getName())
                .isEqualTo("podnuma-agent-low-latency");
        assertThat(agent.getArgs()).containsExactly("run", "--config", "/etc/podnuma/agent.yaml");
    }

    @Test
    void aKubeletRootWithATrailingSlashMountsTheSamePodResourcesDirectory() {
        AgentRollout slash = ROLLOUT.toBuilder()
                .hostPaths(new AgentHostPaths(
                        "/sys",
                        "/sys/fs/cgroup",
                        "/var/lib/podnuma",
                        Optional.of("/data/kubelet/"),
                        Optional.empty(),
                        AgentHostPaths.DEFAULT_POD_RESOURCES_SOCKET,
                        AgentHostPaths.DEFAULT_NRI_SOCKET))
                .build();
        PodSpec pod = AgentRender.render("low-latency", SPEC, slash)
                .daemonSet()
                .getSpec()
                .getTemplate()
                .getSpec();
        assertThat(pod.getVolumes())
                .filteredOn(v -> v.getName().equals("kubelet-pod-resources"))
                .extracting(v -> v.getHostPath().getPath())
                .containsExactly("/data/kubelet/pod-resources");
    }

    @Test
    void withoutKubeletPathsTheAgentReadsNoKubeletFileAndMountsNone() {
        AgentRollout noKubelet = ROLLOUT.toBuilder()
                .hostPaths(new AgentHostPaths(
                        "/sys",
                        "/sys/fs/cgroup",
                        "/var/lib/podnuma",
                        Optional.empty(),
                        Optional.empty(),
                        AgentHostPaths.DEFAULT_POD_RESOURCES_SOCKET,
                        AgentHostPaths.DEFAULT_NRI_SOCKET))
                .build();
        RenderedAgent r = AgentRender.render("low-latency", SPEC, noKubelet);
        NodeAgentConfig config =
                NodeAgentConfigYaml.read(r.configMap().getData().get(AgentRender.CONFIG_KEY));
        assertThat(config.kubeletCheckSocket()).isNull();
        assertThat(config.kubeletPodResourcesSocket()).isNull();
        assertThat(config.kubeletConfigFile()).isNull();
        assertThat(r.daemonSet().getSpec().getTemplate().getSpec().getVolumes())
                .extracting(Volume::getName)
                .containsExactly("config", "host-sys", "host-cgroup", "state", "pod-resources", "tmp", "nri");
    }

    @Test
    void theDaemonSetRunsOnTheLabelledNodesWhateverTheirTaintsAndRollsAFractionAtATime() {
        RenderedAgent r = AgentRender.render("low-latency", SPEC, ROLLOUT);
        var ds = r.daemonSet();
        PodSpec pod = ds.getSpec().getTemplate().getSpec();
        assertThat(ds.getMetadata().getName()).isEqualTo("podnuma-agent-low-latency");
        assertThat(ds.getMetadata().getNamespace()).isEqualTo("podnuma-system");
        assertThat(pod.getNodeSelector()).isEqualTo(Map.of("podnuma.io/policy", "low-latency"));
        assertThat(pod.getTolerations()).singleElement().satisfies(t -> {
            assertThat(t.getOperator()).isEqualTo("Exists");
            assertThat(t.getKey()).isNull();
        });
        assertThat(ds.getSpec()
                        .getUpdateStrategy()
                        .getRollingUpdate()
                        .getMaxUnavailable()
                        .getStrVal())
                .isEqualTo("10%");
        assertThat(pod.getPriorityClassName()).isEqualTo("system-node-critical");
        assertThat(pod.getServiceAccountName()).isEqualTo("podnuma-agent");
        assertThat(pod.getEnableServiceLinks())
                .as("no Service variables among the agent's settings")
                .isFalse();
        assertThat(pod.getHostNetwork()).isTrue();
        assertThat(pod.getDnsPolicy()).isEqualTo("ClusterFirstWithHostNet");
        assertThat(ds.getSpec().getSelector().getMatchLabels())
                .isEqualTo(Map.of("app.kubernetes.io/name", "podnuma-agent", "podnuma.io/policy", "low-latency"));
        assertThat(ds.getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(ds.getSpec().getSelector().getMatchLabels());
        Container agent = pod.getContainers().getFirst();
        SecurityContext security = agent.getSecurityContext();
        assertThat(security.getPrivileged()).isFalse();
        assertThat(security.getAllowPrivilegeEscalation()).isFalse();
        assertThat(security.getReadOnlyRootFilesystem()).isTrue();
        assertThat(security.getRunAsUser()).isZero();
        assertThat(security.getRunAsNonRoot()).isFalse();
        assertThat(security.getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(security.getCapabilities().getAdd()).isNullOrEmpty();
        assertThat(security.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(pod.getVolumes())
                .filteredOn(v -> v.getName().equals("tmp"))
                .singleElement()
                .satisfies(v -> assertThat(v.getEmptyDir().getSizeLimit()).isEqualTo(new Quantity("16Mi")));
        assertThat(agent.getEnv())
                .singleElement()
                .satisfies(e -> assertThat(e.getValueFrom().getFieldRef().getFieldPath())
                        .isEqualTo("spec.nodeName"));
        assertThat(agent.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
        assertThat(agent.getReadinessProbe().getHttpGet().getPort().getIntVal()).isEqualTo(8081);
        // Period and failure threshold: startup fast until it succeeds (60 s allowed), liveness at the kubelet's
        // default period (it runs all the time on every node).
        assertThat(List.of(agent.getStartupProbe(), agent.getReadinessProbe(), agent.getLivenessProbe()))
                .extracting(p -> p.getHttpGet().getPath() + " " + p.getPeriodSeconds() + "x" + p.getFailureThreshold())
                .containsExactly("/startupz 1x120", "/readyz 10x3", "/healthz 10x3");
        assertThat(agent.getResources().getRequests()).containsEntry("cpu", new Quantity("50m"));
        assertThat(r.service().getSpec().getClusterIP()).isEqualTo("None");
        assertThat(r.service().getSpec().getPorts().getFirst().getPort()).isEqualTo(9464);
        assertThat(r.serviceMonitor()).hasValueSatisfying(sm -> {
            assertThat(sm.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
            assertThat(sm.getMetadata().getLabels())
                    .isEqualTo(r.service().getMetadata().getLabels());
            // node and policy from the agent pod, as the chart's PodMonitor sets them.
            Map<?, ?> endpoint = (Map<?, ?>)
                    ((List<?>) ((Map<?, ?>) sm.getAdditionalProperties().get("spec")).get("endpoints")).getFirst();
            assertThat(endpoint.get("relabelings"))
                    .isEqualTo(List.of(
                            Map.of("sourceLabels", List.of("__meta_kubernetes_pod_node_name"), "targetLabel", "node"),
                            Map.of(
                                    "sourceLabels",
                                    List.of("__meta_kubernetes_pod_label_podnuma_io_policy"),
                                    "targetLabel",
                                    "policy")));
            assertThat(r.daemonSet().getSpec().getTemplate().getMetadata().getLabels())
                    .as("the label the policy relabeling reads")
                    .containsKey("podnuma.io/policy");
        });
    }

    @Test
    void theApiServerEndpointAndTheTestKnobsReachThePod() {
        AgentRollout test = ROLLOUT.toBuilder()
                .apiServer(new ApiServerEndpoint("127.0.0.1", 6443))
                .pullPolicy(PullPolicy.NEVER)
                .ports(19464, 18081)
                .resources(Map.of("memory", new Quantity("128Mi")), Map.of())
                .periods(Duration.ofSeconds(2), Duration.ofMillis(200))
                .maxUnavailable("1")
                .build();
        RenderedAgent r = AgentRender.render("low-latency", SPEC, test);
        Container agent =
                r.daemonSet().getSpec().getTemplate().getSpec().getContainers().getFirst();
        assertThat(agent.getEnv())
                .extracting(EnvVar::getName, EnvVar::getValue)
                .contains(
                        org.assertj.core.groups.Tuple.tuple("KUBERNETES_SERVICE_HOST", "127.0.0.1"),
                        org.assertj.core.groups.Tuple.tuple("KUBERNETES_SERVICE_PORT", "6443"));
        assertThat(agent.getImagePullPolicy()).isEqualTo("Never");
        assertThat(agent.getResources().getRequests()).isEqualTo(Map.of("memory", new Quantity("128Mi")));
        assertThat(agent.getResources().getLimits()).isNull();
        assertThat(r.daemonSet()
                        .getSpec()
                        .getUpdateStrategy()
                        .getRollingUpdate()
                        .getMaxUnavailable()
                        .getIntVal())
                .isEqualTo(1);
        NodeAgentConfig config =
                NodeAgentConfigYaml.read(r.configMap().getData().get(AgentRender.CONFIG_KEY));
        assertThat(config.metricsPort()).isEqualTo(19464);
        assertThat(config.reconcilePeriod()).isEqualTo("2s");
        assertThat(config.statusMinInterval()).isEqualTo("200ms");
    }

    @Test
    void theSameInputRendersEqualObjectsAndOnlyWhatTheAgentDoesChangesTheHash() {
        RenderedAgent a = AgentRender.render("low-latency", SPEC, ROLLOUT);
        assertThat(AgentRender.render("low-latency", SPEC, ROLLOUT)).isEqualTo(a);
        RenderedAgent otherSelector =
                AgentRender.render("low-latency", spec("0", Map.of("pool", "other"), 99), ROLLOUT);
        assertThat(otherSelector.configHash()).isEqualTo(a.configHash());
        assertThat(otherSelector.policyHash()).isEqualTo(a.policyHash());
        RenderedAgent otherReservation = AgentRender.render("low-latency", spec("0-1", Map.of(), null), ROLLOUT);
        assertThat(otherReservation.configHash()).isNotEqualTo(a.configHash());
        assertThat(otherReservation.policyHash()).isNotEqualTo(a.policyHash());
        assertThat(otherReservation
                        .daemonSet()
                        .getSpec()
                        .getTemplate()
                        .getMetadata()
                        .getAnnotations())
                .isEqualTo(Map.of("podnuma.io/config-hash", otherReservation.configHash()));
        RenderedAgent otherPeriod = AgentRender.render(
                "low-latency",
                SPEC,
                ROLLOUT.toBuilder()
                        .periods(Duration.ofSeconds(5), Duration.ofSeconds(1))
                        .build());
        assertThat(otherPeriod.configHash()).as("the file changed").isNotEqualTo(a.configHash());
        assertThat(otherPeriod.policyHash()).as("the policy did not").isEqualTo(a.policyHash());
    }

    @Test
    void theAgentsLogSettingsReachItsFileAndTextStaysOutSoAnUpgradeRollsNoAgent() {
        RenderedAgent text = AgentRender.render("low-latency", SPEC, ROLLOUT);
        String textFile = text.configMap().getData().get(AgentRender.CONFIG_KEY);
        assertThat(NodeAgentConfigYaml.read(textFile).logLevel()).isEqualTo("info");
        assertThat(textFile).doesNotContain("logFormat");

        RenderedAgent json = AgentRender.render(
                "low-latency",
                SPEC,
                ROLLOUT.toBuilder()
                        .logLevel(LogLevel.DEBUG)
                        .logFormat(LogFormat.JSON)
                        .build());
        NodeAgentConfig config =
                NodeAgentConfigYaml.read(json.configMap().getData().get(AgentRender.CONFIG_KEY));
        assertThat(config.logLevel()).isEqualTo("debug");
        assertThat(config.logFormat()).isEqualTo("json");
        assertThat(json.configHash()).as("the agents restart with it").isNotEqualTo(text.configHash());
    }

    @Test
    void aNameThatCannotNameTheObjectsAndABadSpecAreRefusedWithTheReason() {
        assertThatThrownBy(() -> AgentRender.render("x".repeat(50), SPEC, ROLLOUT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 49 characters");
        assertThatThrownBy(() -> AgentRender.render("low.latency", SPEC, ROLLOUT))
                .hasMessageContaining("policy name 'low.latency'");
        assertThatThrownBy(() -> AgentRender.render("ok", spec("0-", Map.of(), null), ROLLOUT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("policy ok cannot be rendered")
                .hasMessageContaining("spec.cpuManager.reservedCpus");
        assertThatThrownBy(() -> ROLLOUT.toBuilder().maxUnavailable("0").build())
                .hasMessageContaining("maxUnavailable '0'");
        assertThatThrownBy(() -> ROLLOUT.toBuilder().ports(9000, 9000).build()).hasMessageContaining("both 9000");
    }

    @Test
    void theSocketCanBeAnywhereOnTheNodeAndTheAgentMakesItInTheMountedDirectory() {
        AgentRollout elsewhere = ROLLOUT.toBuilder()
                .hostPaths(new AgentHostPaths(
                        "/sys",
                        "/sys/fs/cgroup",
                        "/var/lib/podnuma",
                        Optional.empty(),
                        Optional.empty(),
                        "/run/podnuma-agent/api/agent.sock",
                        AgentHostPaths.DEFAULT_NRI_SOCKET))
                .build();
        RenderedAgent r = AgentRender.render("low-latency", SPEC, elsewhere);
        NodeAgentConfig config =
                NodeAgentConfigYaml.read(r.configMap().getData().get(AgentRender.CONFIG_KEY));
        assertThat(config.podResourcesSocket()).isEqualTo("/run/podnuma/pod-resources/agent.sock");
        PodSpec pod = r.daemonSet().getSpec().getTemplate().getSpec();
        Map<String, VolumeMount> mounts = pod.getContainers().getFirst().getVolumeMounts().stream()
                .collect(Collectors.toMap(VolumeMount::getMountPath, m -> m));
        Map<String, Volume> volumes = pod.getVolumes().stream().collect(Collectors.toMap(Volume::getName, v -> v));
        assertThat(hostPathAt(mounts, volumes, "/run/podnuma/pod-resources")).isEqualTo("/run/podnuma-agent/api");
        assertThat(r.configHash())
                .as("the file changed")
                .isNotEqualTo(AgentRender.render("low-latency", SPEC, ROLLOUT).configHash());
    }

    @Test
    void theReconcilePeriodSettingReachesTheFile() {
        RenderedAgent r = AgentRender.render(
                "low-latency",
                SPEC,
                ROLLOUT.toBuilder()
                        .reconcilePeriod(Optional.of(Duration.ofSeconds(90)))
                        .build());
        NodeAgentConfig config =
                NodeAgentConfigYaml.read(r.configMap().getData().get(AgentRender.CONFIG_KEY));
        assertThat(config.reconcilePeriod()).isEqualTo("90s");
        assertThat(config.statusMinInterval()).as("the agent's default").isNull();
    }

    private static final AgentToleration DEDICATED = new AgentToleration(
            Optional.of("dedicated"),
            TolerationOperator.EQUAL,
            Optional.of("trading"),
            Optional.of(TaintEffect.NO_EXECUTE),
            Optional.of(30L));
    private static final AgentToleration GPU = new AgentToleration(
            Optional.of("example.com/gpu"),
            TolerationOperator.EXISTS,
            Optional.empty(),
            Optional.of(TaintEffect.NO_SCHEDULE),
            Optional.empty());

    @Test
    void tolerationsNodeSelectorTermsAndExtraLabelsReachThePodsAndTheObjects() {
        AgentRollout placed = ROLLOUT.toBuilder()
                .tolerations(List.of(DEDICATED, GPU))
                .nodeSelector(Map.of("topology.kubernetes.io/zone", "a"))
                .podLabels(Map.of("example.com/team", "infra", "app.kubernetes.io/instance", "podnuma"))
                .build();
        RenderedAgent r = AgentRender.render("low-latency", SPEC, placed);
        var ds = r.daemonSet();
        PodSpec pod = ds.getSpec().getTemplate().getSpec();
        assertThat(pod.getTolerations())
                .containsExactly(
                        new TolerationBuilder()
                                .withKey("dedicated")
                                .withOperator("Equal")
                                .withValue("trading")
                                .withEffect("NoExecute")
                                .withTolerationSeconds(30L)
                                .build(),
                        new TolerationBuilder()
                                .withKey("example.com/gpu")
                                .withOperator("Exists")
                                .withEffect("NoSchedule")
                                .build());
        assertThat(pod.getNodeSelector())
                .isEqualTo(Map.of("podnuma.io/policy", "low-latency", "topology.kubernetes.io/zone", "a"));
        Map<String, String> expected = Map.of(
                "app.kubernetes.io/name", "podnuma-agent",
                "app.kubernetes.io/instance", "podnuma",
                "app.kubernetes.io/component", "node-agent",
                "app.kubernetes.io/part-of", "podnuma",
                "app.kubernetes.io/managed-by", "podnuma-operator",
                "podnuma.io/policy", "low-latency",
                "example.com/team", "infra");
        assertThat(ds.getSpec().getTemplate().getMetadata().getLabels()).isEqualTo(expected);
        assertThat(ds.getMetadata().getLabels()).isEqualTo(expected);
        assertThat(r.configMap().getMetadata().getLabels()).isEqualTo(expected);
        assertThat(r.service().getMetadata().getLabels()).isEqualTo(expected);
        assertThat(ds.getSpec().getSelector().getMatchLabels())
                .as("the selectors never change: a DaemonSet's selector is immutable")
                .isEqualTo(AgentRender.selector("low-latency"));
        assertThat(r.service().getSpec().getSelector()).isEqualTo(AgentRender.selector("low-latency"));
        assertThat(r.serviceMonitor().orElseThrow().getMetadata().getLabels())
                .as("the pods' extra labels are not the monitor's")
                .doesNotContainKey("example.com/team")
                .containsEntry("app.kubernetes.io/instance", "low-latency");
        assertThat(r.configHash())
                .as("placement is not the agent's business: no new file")
                .isEqualTo(AgentRender.render("low-latency", SPEC, ROLLOUT).configHash());
    }

    @Test
    void extraAnnotationsGoOnThePodsBesideTheConfigHashAndAChangedOneRollsTheAgents() {
        Map<String, String> tolerated =
                Map.of("nri.example.com/tolerate-missing-plugins", "true", "example.com/Note", "any text: even {this}");
        RenderedAgent plain = AgentRender.render("low-latency", SPEC, ROLLOUT);
        RenderedAgent r = AgentRender.render(
                "low-latency",
                SPEC,
                ROLLOUT.toBuilder().podAnnotations(tolerated).build());
        var template = r.daemonSet().getSpec().getTemplate();
        assertThat(template.getMetadata().getAnnotations())
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "nri.example.com/tolerate-missing-plugins", "true",
                        "example.com/Note", "any text: even {this}",
                        "podnuma.io/config-hash", r.configHash()));
        assertThat(plain.daemonSet().getSpec().getTemplate().getMetadata().getAnnotations())
                .as("what the operator puts there itself is what an extra annotation may not set")
                .containsOnlyKeys(AgentAnnotations.RESERVED);
        assertThat(r.daemonSet().getMetadata().getAnnotations())
                .as("on the pods only")
                .isNullOrEmpty();
        assertThat(r.configMap().getMetadata().getAnnotations()).isNullOrEmpty();
        assertThat(r.service().getMetadata().getAnnotations()).isNullOrEmpty();
        assertThat(r.configHash())
                .as("the agent's file is the same: the config hash does not change")
                .isEqualTo(plain.configHash());

        RenderedAgent changed = AgentRender.render(
                "low-latency",
                SPEC,
                ROLLOUT.toBuilder()
                        .podAnnotations(Map.of("nri.example.com/tolerate-missing-plugins", "false"))
                        .build());
        assertThat(changed.configHash()).isEqualTo(r.configHash());
        assertThat(changed.daemonSet().getSpec().getTemplate())
                .as("a new pod template: the DaemonSet controller rolls the agents onto it")
                .isNotEqualTo(template);
        assertThat(changed.daemonSet().getSpec().getTemplate().getSpec())
                .as("and nothing but the template's annotations differs")
                .isEqualTo(template.getSpec());
    }

    @Test
    void theRolloutRefusesAReservedOrBadAnnotationKeyAndAnnotationsTooLargeForTheApiServer() {
        assertThatThrownBy(() -> ROLLOUT.toBuilder()
                        .podAnnotations(Map.of("podnuma.io/config-hash", "x"))
                        .build())
                .hasMessage("podAnnotations: podnuma.io/config-hash: the operator sets it");
        assertThatThrownBy(() -> ROLLOUT.toBuilder()
                        .podAnnotations(Map.of("Bad Key", "v"))
                        .build())
                .hasMessage("podAnnotations: Bad Key: allowed " + AgentAnnotations.KEY_RULE);
        assertThatThrownBy(() ->
                        ROLLOUT.toBuilder().podAnnotations(Map.of("a/b/c", "v")).build())
                .hasMessageContaining("a/b/c: allowed an annotation key");

        String key = "example.com/blob";
        String fits = "x".repeat(AgentAnnotations.MAX_TOTAL_BYTES - key.length());
        RenderedAgent largest = AgentRender.render(
                "low-latency",
                SPEC,
                ROLLOUT.toBuilder().podAnnotations(Map.of(key, fits)).build());
        assertThat(AgentAnnotations.totalBytes(largest.daemonSet()
                        .getSpec()
                        .getTemplate()
                        .getMetadata()
                        .getAnnotations()))
                .as("the largest allowed, with the config hash, is exactly the API server's 256 KiB")
                .isEqualTo(256 * 1024);
        String tooLarge = fits.substring(1) + "é";
        assertThatThrownBy(() -> ROLLOUT.toBuilder()
                        .podAnnotations(Map.of(key, tooLarge))
                        .build())
                .as("counted in UTF-8 bytes, as the API server counts")
                .hasMessage("podAnnotations: " + (AgentAnnotations.MAX_TOTAL_BYTES + 1) + " bytes: allowed "
                        + AgentAnnotations.TOTAL_RULE);
    }

    @Test
    void anEmptyTolerationListToleratesNoTaint() {
        RenderedAgent r = AgentRender.render(
                "low-latency", SPEC, ROLLOUT.toBuilder().tolerations(List.of()).build());
        assertThat(r.daemonSet().getSpec().getTemplate().getSpec().getTolerations())
                .isEmpty();
    }

    @Test
    void theServiceMonitorCarriesItsOwnExtraLabelsOrIsNotRenderedAtAll() {
        RenderedAgent labelled = AgentRender.render(
                "low-latency",
                SPEC,
                ROLLOUT.toBuilder()
                        .serviceMonitor(Optional.of(new AgentServiceMonitor(Map.of("release", "kps"))))
                        .build());
        assertThat(labelled.serviceMonitor().orElseThrow().getMetadata().getLabels())
                .containsEntry("release", "kps")
                .containsEntry("podnuma.io/policy", "low-latency")
                .hasSize(7);
        assertThat(labelled.service().getMetadata().getLabels()).doesNotContainKey("release");

        RenderedAgent none = AgentRender.render(
                "low-latency",
                SPEC,
                ROLLOUT.toBuilder().serviceMonitor(Optional.empty()).build());
        assertThat(none.serviceMonitor()).isEmpty();
        assertThat(none.daemonSet()).isEqualTo(labelled.daemonSet());
    }

    @Test
    void mapsGivenInAnyOrderRenderTheSameBytes() {
        Map<String, String> ab = new LinkedHashMap<>();
        ab.put("a.example/x", "1");
        ab.put("b.example/y", "2");
        Map<String, String> ba = new LinkedHashMap<>();
        ba.put("b.example/y", "2");
        ba.put("a.example/x", "1");
        KubernetesSerialization json = new KubernetesSerialization();
        RenderedAgent first = AgentRender.render(
                "low-latency",
                SPEC,
                ROLLOUT.toBuilder()
                        .podLabels(ab)
                        .nodeSelector(ab)
                        .serviceMonitor(Optional.of(new AgentServiceMonitor(ab)))
                        .tolerations(List.of(GPU, DEDICATED))
                        .build());
        RenderedAgent second = AgentRender.render(
                "low-latency",
                SPEC,
                ROLLOUT.toBuilder()
                        .podLabels(ba)
                        .nodeSelector(ba)
                        .serviceMonitor(Optional.of(new AgentServiceMonitor(ba)))
                        .tolerations(List.of(GPU, DEDICATED))
                        .build());
        assertThat(second).isEqualTo(first);
        assertThat(json.asJson(second.daemonSet())).isEqualTo(json.asJson(first.daemonSet()));
        assertThat(json.asJson(second.serviceMonitor().orElseThrow()))
                .isEqualTo(json.asJson(first.serviceMonitor().orElseThrow()));
        assertThat(json.asJson(second.configMap())).isEqualTo(json.asJson(first.configMap()));
    }

    @Test
    void theRolloutRefusesWhatWouldBreakTheSelectorsOrThePods() {
        assertThatThrownBy(() -> ROLLOUT.toBuilder()
                        .podLabels(Map.of("podnuma.io/policy", "x", "Bad Key", "v"))
                        .build())
                .hasMessageContaining("podLabels: ")
                .hasMessageContaining("podnuma.io/policy: the operator sets it")
                .hasMessageContaining("Bad Key: allowed a label key");
        assertThatThrownBy(() -> ROLLOUT.toBuilder()
                        .nodeSelector(Map.of("podnuma.io/policy", "x"))
                        .build())
                .hasMessage("nodeSelector: podnuma.io/policy: the operator sets it");
        assertThatThrownBy(() -> new AgentServiceMonitor(Map.of("app.kubernetes.io/managed-by", "helm")))
                .hasMessage("ServiceMonitor labels: app.kubernetes.io/managed-by: the operator sets it");
        assertThatThrownBy(() -> new AgentToleration(
                        Optional.empty(),
                        TolerationOperator.EXISTS,
                        Optional.of("v"),
                        Optional.of(TaintEffect.NO_SCHEDULE),
                        Optional.of(5L)))
                .hasMessage("toleration: allowed no value with operator Exists (it tolerates every value of the key);"
                        + " allowed tolerationSeconds only with effect NoExecute");
        assertThatThrownBy(() -> ROLLOUT.toBuilder()
                        .reconcilePeriod(Optional.of(Duration.ofMillis(500)))
                        .build())
                .hasMessage("reconcilePeriod 500ms: allowed 1s..1h");
        assertThatThrownBy(() -> hostPaths("/x.sock", AgentHostPaths.DEFAULT_NRI_SOCKET))
                .hasMessageStartingWith("podResourcesSocket '/x.sock': allowed an absolute path of a socket file");
    }

    private static AgentHostPaths hostPaths(String podResourcesSocket, String nriSocket) {
        return new AgentHostPaths(
                "/sys",
                "/sys/fs/cgroup",
                "/var/lib/podnuma",
                Optional.empty(),
                Optional.empty(),
                podResourcesSocket,
                nriSocket);
    }

    private static String hostPathAt(Map<String, VolumeMount> mounts, Map<String, Volume> volumes, String path) {
        assertThat(mounts).containsKey(path);
        return volumes.get(mounts.get(path).getName()).getHostPath().getPath();
    }
}
