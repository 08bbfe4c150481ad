package io.podnuma.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code helm template} with the defaults and with each optional part, read back as objects. */
@ExtendWith(ControlPlaneExtension.class)
class ChartTemplateIT {

    static final String OPERATOR = "r-podnuma-operator";
    static final String AGENT = "r-podnuma-agent";
    static final String NAMESPACE = "podnuma-system";

    @Test
    void theDefaultsMakeTheOperatorTheAgentsIdentityAndTheAdmissionPolicy(ControlPlane plane) {
        Rendered r = Helm.render(plane);
        assertThat(r.kindsAndNames())
                .containsExactly(
                        "ClusterRole/" + AGENT,
                        "ClusterRole/" + OPERATOR,
                        "ClusterRoleBinding/" + AGENT,
                        "ClusterRoleBinding/" + OPERATOR,
                        "ConfigMap/" + OPERATOR,
                        "Deployment/" + OPERATOR,
                        "PodDisruptionBudget/" + OPERATOR,
                        "Role/" + OPERATOR,
                        "Role/" + OPERATOR + "-events",
                        "RoleBinding/" + OPERATOR,
                        "RoleBinding/" + OPERATOR + "-events",
                        "Service/" + OPERATOR + "-metrics",
                        "ServiceAccount/" + AGENT,
                        "ServiceAccount/" + OPERATOR,
                        "ValidatingAdmissionPolicy/" + AGENT + ".podnuma.io",
                        "ValidatingAdmissionPolicy/" + OPERATOR + "-daemonsets.podnuma.io",
                        "ValidatingAdmissionPolicy/" + OPERATOR + ".podnuma.io",
                        "ValidatingAdmissionPolicyBinding/" + AGENT + ".podnuma.io",
                        "ValidatingAdmissionPolicyBinding/" + OPERATOR + "-daemonsets.podnuma.io",
                        "ValidatingAdmissionPolicyBinding/" + OPERATOR + ".podnuma.io");
        for (HasMetadata o : r.objects()) {
            assertThat(o.getMetadata().getLabels())
                    .as(o.getKind())
                    .containsEntry("app.kubernetes.io/name", "podnuma")
                    .containsEntry("app.kubernetes.io/instance", "r")
                    .containsEntry("app.kubernetes.io/managed-by", "Helm")
                    .containsEntry("app.kubernetes.io/version", "0.1.0-SNAPSHOT")
                    .containsKey("helm.sh/chart");
        }
        assertThat(r.get(PodDisruptionBudget.class, OPERATOR)
                        .getSpec()
                        .getMinAvailable()
                        .getIntVal())
                .isEqualTo(1);
        Service metrics = r.get(Service.class, OPERATOR + "-metrics");
        assertThat(metrics.getSpec().getPorts()).singleElement().satisfies(p -> {
            assertThat(p.getPort()).isEqualTo(9090);
            assertThat(p.getTargetPort().getStrVal()).isEqualTo("metrics");
        });
        assertThat(metrics.getSpec().getSelector())
                .isEqualTo(r.get(Deployment.class, OPERATOR)
                        .getSpec()
                        .getSelector()
                        .getMatchLabels());
    }

    @Test
    void theOperatorRunsHardenedWithItsSettingsFile(ControlPlane plane) {
        Deployment d = Helm.render(plane).get(Deployment.class, OPERATOR);
        assertThat(d.getSpec().getReplicas()).isEqualTo(2);
        PodSpec pod = d.getSpec().getTemplate().getSpec();
        assertThat(pod.getServiceAccountName()).isEqualTo(OPERATOR);
        assertThat(pod.getEnableServiceLinks())
                .as("no Service variables among the operator's settings")
                .isFalse();
        assertThat(pod.getHostNetwork()).isNull();
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(65532L);
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        Container c = pod.getContainers().getFirst();
        assertThat(c.getImage()).isEqualTo("podnuma.local/operator:0.1.0-SNAPSHOT");
        assertThat(c.getArgs()).containsExactly("run", "--config", "/etc/podnuma/operator.yaml");
        assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(c.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(c.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(c.getSecurityContext().getCapabilities().getAdd()).isNullOrEmpty();
        assertThat(c.getSecurityContext().getPrivileged()).isNotEqualTo(Boolean.TRUE);
        assertThat(pod.getVolumes())
                .as("its settings and a scratch /tmp, nothing of the node")
                .allSatisfy(v -> assertThat(v.getHostPath()).isNull())
                .extracting(v -> v.getName())
                .containsExactly("settings", "tmp");
        assertThat(env(c, "PODNUMA_OPERATOR_NAMESPACE")
                        .getValueFrom()
                        .getFieldRef()
                        .getFieldPath())
                .isEqualTo("metadata.namespace");
        assertThat(env(c, "POD_NAME").getValueFrom().getFieldRef().getFieldPath())
                .isEqualTo("metadata.name");
        assertThat(c.getEnv()).extracting(EnvVar::getName).doesNotContain("KUBERNETES_SERVICE_HOST");
        assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
        assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
        assertThat(c.getStartupProbe().getHttpGet().getPath()).isEqualTo("/healthz");
        assertThat(c.getPorts())
                .extracting(p -> p.getName() + "=" + p.getContainerPort())
                .containsExactly("health=8080", "metrics=9090");
        assertThat(c.getLivenessProbe().getHttpGet().getPort().getStrVal()).isEqualTo("health");
        assertThat(c.getResources().getRequests())
                .containsEntry("cpu", new Quantity("100m"))
                .containsEntry("memory", new Quantity("256Mi"));
        assertThat(c.getResources().getLimits()).containsEntry("memory", new Quantity("512Mi"));
        assertThat(c.getVolumeMounts())
                .extracting(m -> m.getName() + ":" + m.getMountPath())
                .containsExactlyInAnyOrder("settings:/etc/podnuma", "tmp:/tmp");
        assertThat(pod.getVolumes()).anySatisfy(v -> {
            assertThat(v.getName()).isEqualTo("tmp");
            assertThat(v.getEmptyDir()).isNotNull();
        });
        assertThat(pod.getVolumes())
                .anySatisfy(v -> assertThat(v.getConfigMap().getName()).isEqualTo(OPERATOR));
    }

    @Test
    void theSettingsFileCarriesTheAgentValues(ControlPlane plane) {
        JsonNode defaults = settings(Helm.render(plane));
        assertThat(defaults.path("namespace").asText()).isEqualTo(NAMESPACE);
        assertThat(defaults.path("leaderElection").asText()).isEqualTo("true");
        assertThat(defaults.path("agentImage").asText()).isEqualTo("podnuma.local/node-agent:0.1.0-SNAPSHOT");
        assertThat(defaults.path("agentServiceAccount").asText()).isEqualTo(AGENT);
        assertThat(defaults.path("agentPriorityClass").asText()).isEqualTo("system-node-critical");
        assertThat(defaults.path("maxUnavailable").asText()).isEqualTo("10%");
        assertThat(defaults.path("agentReconcilePeriod").asText()).isEqualTo("10s");
        assertThat(defaults.path("agentNetwork").asText()).isEqualTo("host");
        assertThat(defaults.path("agentPinning").asText()).isEqualTo("auto");
        assertThat(defaults.path("agentNriSocket").asText()).isEqualTo("/var/run/nri/nri.sock");
        assertThat(defaults.path("agentNriPluginIndex").asText()).isEqualTo("40");
        assertThat(defaults.path("agentCpusetPartitions").asText()).isEqualTo("false");
        assertThat(defaults.path("agentTolerations").toString()).isEqualTo("[{\"operator\":\"Exists\"}]");
        assertThat(defaults.path("agentNodeSelector").toString()).isEqualTo("{}");
        assertThat(defaults.path("agentPodLabels").toString()).isEqualTo("{}");
        assertThat(defaults.path("agentPodAnnotations").toString()).isEqualTo("{}");
        // Every scalar is a string, as the operator reads the file.
        defaults.properties()
                .forEach(
                        e -> assertThat(e.getValue().isTextual() || e.getValue().isContainerNode())
                                .as(e.getKey())
                                .isTrue());

        JsonNode set = settings(Helm.render(
                plane,
                "--set",
                "agent.image.repository=registry.example/podnuma/agent,agent.image.tag=1.2.3",
                "--set",
                "agent.image.pullPolicy=Always,agent.reconcilePeriod=30s,agent.maxUnavailable=3",
                "--set",
                "agent.metricsPort=19464,agent.healthPort=18081,agent.network=pod,agent.logLevel=debug",
                "--set",
                "agent.podResourcesSocket=/run/podnuma/pr.sock,agent.apiServer=10.0.0.1:6443",
                "--set",
                "agent.pinning=cgroup,agent.nriSocket=/run/containerd/nri/nri.sock",
                "--set-string",
                "agent.nriPluginIndex=05",
                "--set",
                "agent.priorityClassName=,agent.resources.requests.cpu=,agent.resources.limits.memory=1Gi",
                "--set",
                "agent.hostPaths.kubeletRootDir=,agent.hostPaths.stateDir=/srv/podnuma",
                "--set-json",
                "agent.tolerations=[{\"key\":\"dedicated\",\"operator\":\"Equal\",\"value\":\"latency\"}]",
                "--set-json",
                "agent.nodeSelector={\"kubernetes.io/os\":\"linux\"}",
                "--set-json",
                "agent.podLabels={\"team\":\"perf\"}",
                "--set",
                "operator.restoreTimeout=1m,operator.errorWindow=0s,operator.healthPort=8088",
                "--set",
                "operator.leaseDuration=4s,operator.renewDeadline=3s,operator.retryPeriod=500ms"));
        assertThat(set.path("agentImage").asText()).isEqualTo("registry.example/podnuma/agent:1.2.3");
        assertThat(set.path("agentPullPolicy").asText()).isEqualTo("Always");
        assertThat(set.path("agentReconcilePeriod").asText()).isEqualTo("30s");
        assertThat(set.path("maxUnavailable").asText()).isEqualTo("3");
        assertThat(set.path("agentMetricsPort").asText()).isEqualTo("19464");
        assertThat(set.path("agentHealthPort").asText()).isEqualTo("18081");
        assertThat(set.path("agentNetwork").asText()).isEqualTo("pod");
        assertThat(set.path("agentLogLevel").asText()).isEqualTo("debug");
        assertThat(set.path("agentPodResourcesSocket").asText()).isEqualTo("/run/podnuma/pr.sock");
        assertThat(set.path("agentPinning").asText()).isEqualTo("cgroup");
        assertThat(set.path("agentNriSocket").asText()).isEqualTo("/run/containerd/nri/nri.sock");
        assertThat(set.path("agentNriPluginIndex").asText())
                .as("two digits, quoted for the operator")
                .isEqualTo("05");
        assertThat(set.path("apiServer").asText()).isEqualTo("10.0.0.1:6443");
        assertThat(set.path("agentPriorityClass").asText()).isEmpty();
        assertThat(set.path("agentCpuRequest").asText()).isEmpty();
        assertThat(set.path("agentMemoryRequest").asText()).isEqualTo("160Mi");
        assertThat(set.path("agentMemoryLimit").asText()).isEqualTo("1Gi");
        assertThat(set.path("kubeletRootDir").asText()).isEmpty();
        assertThat(set.path("hostStateDir").asText()).isEqualTo("/srv/podnuma");
        assertThat(set.path("agentTolerations").toString())
                .isEqualTo("[{\"key\":\"dedicated\",\"operator\":\"Equal\",\"value\":\"latency\"}]");
        assertThat(set.path("agentNodeSelector").toString()).isEqualTo("{\"kubernetes.io/os\":\"linux\"}");
        assertThat(set.path("agentPodLabels").toString()).isEqualTo("{\"team\":\"perf\"}");
        assertThat(set.path("restoreTimeout").asText()).isEqualTo("1m");
        assertThat(set.path("errorWindow").asText()).isEqualTo("0s");
        assertThat(set.path("healthPort").asText()).isEqualTo("8088");
        assertThat(set.path("leaseDuration").asText()).isEqualTo("4s");
        assertThat(set.path("renewDeadline").asText()).isEqualTo("3s");
        assertThat(set.path("retryPeriod").asText()).isEqualTo("500ms");
    }

    @Test
    void theLogValuesOfBothComponentsReachTheSettingsFileAndRollTheOperator(ControlPlane plane) {
        Rendered defaults = Helm.render(plane);
        JsonNode d = settings(defaults);
        assertThat(d.path("logLevel").asText()).isEqualTo("info");
        assertThat(d.path("logFormat").asText()).isEqualTo("text");
        assertThat(d.path("agentLogLevel").asText()).isEqualTo("info");
        assertThat(d.path("agentLogFormat").asText()).isEqualTo("text");

        Rendered json = Helm.render(
                plane,
                "--set",
                "operator.logLevel=debug,operator.logFormat=json,agent.logLevel=warn,agent.logFormat=json");
        JsonNode j = settings(json);
        assertThat(j.path("logLevel").asText()).isEqualTo("debug");
        assertThat(j.path("logFormat").asText()).isEqualTo("json");
        assertThat(j.path("agentLogLevel").asText()).isEqualTo("warn");
        assertThat(j.path("agentLogFormat").asText()).isEqualTo("json");
        assertThat(checksum(json))
                .as("the operator restarts with its new settings")
                .isNotEqualTo(checksum(defaults));
    }

    @Test
    void theAgentPodAnnotationsReachTheSettingsFileAsTextAndRollTheOperator(ControlPlane plane) {
        Rendered rendered = Helm.render(
                plane,
                "--set-json",
                "agent.podAnnotations={\"nri.example.com/tolerate-missing-plugins\":\"true\","
                        + "\"example.com/note\":\"a: b\"}");
        JsonNode annotations = settings(rendered).path("agentPodAnnotations");
        assertThat(annotations.toString())
                .isEqualTo("{\"example.com/note\":\"a: b\",\"nri.example.com/tolerate-missing-plugins\":\"true\"}");
        assertThat(annotations.path("nri.example.com/tolerate-missing-plugins").isTextual())
                .as("\"true\" stays text, as the operator requires of an annotation's value")
                .isTrue();
        assertThat(checksum(rendered))
                .as("a new settings file: the operator restarts and renders the agents' new pod template")
                .isNotEqualTo(checksum(Helm.render(plane)));
    }

    @Test
    void aSettingsChangeRollsTheOperatorAndNothingElseDoes(ControlPlane plane) {
        String defaults = checksum(Helm.render(plane));
        assertThat(checksum(Helm.render(plane, "--set", "agent.reconcilePeriod=20s")))
                .isNotEqualTo(defaults);
        assertThat(checksum(Helm.render(plane, "--set", "agent.logLevel=debug")))
                .isNotEqualTo(defaults);
        assertThat(checksum(Helm.render(plane, "--set", "agent.pinning=nri"))).isNotEqualTo(defaults);
        assertThat(checksum(Helm.render(plane, "--set", "operator.podLabels.team=perf,commonLabels.env=test")))
                .isEqualTo(defaults);
    }

    @Test
    void apiServerAndHostNetworkForClustersWithoutKubeProxy(ControlPlane plane) {
        Container c = operatorContainer(
                Helm.render(plane, "--set", "operator.apiServer=10.0.0.1:6443,operator.hostNetwork=true"));
        assertThat(env(c, "KUBERNETES_SERVICE_HOST").getValue()).isEqualTo("10.0.0.1");
        assertThat(env(c, "KUBERNETES_SERVICE_PORT").getValue()).isEqualTo("6443");
        PodSpec pod = Helm.render(plane, "--set", "operator.hostNetwork=true")
                .get(Deployment.class, OPERATOR)
                .getSpec()
                .getTemplate()
                .getSpec();
        assertThat(pod.getHostNetwork()).isTrue();
        assertThat(pod.getDnsPolicy()).isEqualTo("ClusterFirstWithHostNet");

        Container ipv6 = operatorContainer(Helm.render(plane, "--set", "operator.apiServer=[fd00::1]:443"));
        assertThat(env(ipv6, "KUBERNETES_SERVICE_HOST").getValue()).isEqualTo("fd00::1");
        assertThat(env(ipv6, "KUBERNETES_SERVICE_PORT").getValue()).isEqualTo("443");
    }

    @Test
    void schedulingAndPodMetadataValues(ControlPlane plane) {
        Deployment d = Helm.render(
                        plane,
                        "--set",
                        "operator.priorityClassName=system-cluster-critical,operator.nodeSelector.role=control",
                        "--set",
                        "operator.podLabels.team=perf,operator.podAnnotations.note=hello",
                        "--set",
                        "operator.image.tag=9.9.9,operator.image.pullPolicy=Never,operator.resources.limits.cpu=2",
                        "--set",
                        "imagePullSecrets[0].name=regcred",
                        "--set-json",
                        "operator.tolerations=[{\"key\":\"control\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}]",
                        "--set-json",
                        "operator.affinity={\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":"
                                + "{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":\"zone\",\"operator\":"
                                + "\"In\",\"values\":[\"a\"]}]}]}}}")
                .get(Deployment.class, OPERATOR);
        PodSpec pod = d.getSpec().getTemplate().getSpec();
        assertThat(pod.getPriorityClassName()).isEqualTo("system-cluster-critical");
        assertThat(pod.getNodeSelector()).isEqualTo(Map.of("role", "control"));
        assertThat(pod.getTolerations()).singleElement().satisfies(t -> {
            assertThat(t.getKey()).isEqualTo("control");
            assertThat(t.getEffect()).isEqualTo("NoSchedule");
        });
        assertThat(pod.getAffinity()
                        .getNodeAffinity()
                        .getRequiredDuringSchedulingIgnoredDuringExecution()
                        .getNodeSelectorTerms())
                .hasSize(1);
        assertThat(pod.getImagePullSecrets())
                .singleElement()
                .satisfies(s -> assertThat(s.getName()).isEqualTo("regcred"));
        assertThat(d.getSpec().getTemplate().getMetadata().getLabels()).containsEntry("team", "perf");
        assertThat(d.getSpec().getSelector().getMatchLabels()).doesNotContainKey("team");
        assertThat(d.getSpec().getTemplate().getMetadata().getAnnotations())
                .containsEntry("note", "hello")
                .containsKey("podnuma.io/settings-checksum");
        Container c = pod.getContainers().getFirst();
        assertThat(c.getImage()).isEqualTo("podnuma.local/operator:9.9.9");
        assertThat(c.getImagePullPolicy()).isEqualTo("Never");
        assertThat(c.getResources().getLimits()).containsEntry("cpu", new Quantity("2"));
    }

    @Test
    void commonLabelsGoOnEveryObject(ControlPlane plane) {
        Rendered r = Helm.render(
                plane,
                "--set",
                "commonLabels.env=test,commonLabels.team=perf,nodeResourceTopology.installCrd=true,"
                        + "nodeResourceTopology.enabled=true");
        assertThat(r.objects()).hasSizeGreaterThan(10);
        for (HasMetadata o : r.objects()) {
            assertThat(o.getMetadata().getLabels())
                    .as(o.getKind() + "/" + o.getMetadata().getName())
                    .containsEntry("env", "test")
                    .containsEntry("team", "perf");
        }
    }

    @Test
    void onlySeveralReplicasGetADisruptionBudget(ControlPlane plane) {
        assertThat(Helm.render(plane, "--set", "operator.replicas=1").all(PodDisruptionBudget.class))
                .isEmpty();
        Rendered none = Helm.render(plane, "--set", "operator.replicas=0");
        assertThat(none.all(PodDisruptionBudget.class)).isEmpty();
        assertThat(none.get(Deployment.class, OPERATOR).getSpec().getReplicas()).isZero();
        assertThat(Helm.render(plane, "--set", "operator.replicas=3").all(PodDisruptionBudget.class))
                .hasSize(1);
        JsonNode single = settings(Helm.render(plane, "--set", "operator.replicas=1,operator.leaderElection=false"));
        assertThat(single.path("leaderElection").asText()).isEqualTo("false");
    }

    @Test
    void theOperatorRulesAreTheOperatorsFile(ControlPlane plane) {
        Rendered r = Helm.render(plane);
        List<HasMetadata> source = plane.client()
                .load(new java.io.ByteArrayInputStream(
                        ChartFiles.text(io.podnuma.testkit.Repository.resolve(OperatorRbacCopyTest.SOURCE))
                                .getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .items();
        ClusterRole sourceClusterRole = (ClusterRole) source.get(0);
        Role sourceRole = (Role) source.get(1);
        assertThat(r.get(ClusterRole.class, OPERATOR).getRules()).isEqualTo(sourceClusterRole.getRules());
        Role role = r.get(Role.class, OPERATOR);
        assertThat(role.getRules()).isEqualTo(sourceRole.getRules());
        assertThat(role.getMetadata().getNamespace()).isEqualTo(NAMESPACE);
        assertThat(r.get(ClusterRoleBinding.class, OPERATOR).getSubjects())
                .singleElement()
                .satisfies(s -> assertThat(s.getNamespace() + "/" + s.getName()).isEqualTo(NAMESPACE + "/" + OPERATOR));
        assertThat(r.get(RoleBinding.class, OPERATOR).getRoleRef().getName()).isEqualTo(OPERATOR);
        Role sourceEvents = (Role) source.get(2);
        Role events = r.get(Role.class, OPERATOR + "-events");
        assertThat(events.getRules()).isEqualTo(sourceEvents.getRules());
        assertThat(events.getMetadata().getNamespace()).isEqualTo("default");
        RoleBinding eventsBinding = r.get(RoleBinding.class, OPERATOR + "-events");
        assertThat(eventsBinding.getMetadata().getNamespace()).isEqualTo("default");
        assertThat(eventsBinding.getRoleRef().getName()).isEqualTo(OPERATOR + "-events");
        assertThat(eventsBinding.getSubjects())
                .singleElement()
                .satisfies(s -> assertThat(s.getNamespace() + "/" + s.getName()).isEqualTo(NAMESPACE + "/" + OPERATOR));
    }

    @Test
    void theAgentRulesAreTheDocumentedList(ControlPlane plane) {
        assertThat(r(Helm.render(plane).get(ClusterRole.class, AGENT).getRules()))
                .containsExactlyElementsOf(r(AgentRules.rules(false)));
        assertThat(r(Helm.render(plane, "--set", "nodeResourceTopology.enabled=true")
                        .get(ClusterRole.class, AGENT)
                        .getRules()))
                .containsExactlyElementsOf(r(AgentRules.rules(true)));
        assertThat(r(Helm.render(plane, "--set", "nodeResourceTopology.enabled=true,metrics.secure.enabled=true")
                        .get(ClusterRole.class, AGENT)
                        .getRules()))
                .containsExactlyElementsOf(r(AgentRules.rules(true, true)));
        assertThat(Helm.render(plane).get(ClusterRoleBinding.class, AGENT).getSubjects())
                .singleElement()
                .satisfies(s -> assertThat(s.getKind() + ":" + s.getNamespace() + "/" + s.getName())
                        .isEqualTo("ServiceAccount:" + NAMESPACE + "/" + AGENT));
    }

    @Test
    void theDaemonSetPolicyAllowsOnlyTheKubeletsPodResourcesDirectoryOfItsRoot(ControlPlane plane) {
        assertThat(agentHostPaths(Helm.render(plane)))
                .containsExactly(
                        "/sys",
                        "/sys/fs/cgroup",
                        "/var/lib/podnuma",
                        "/var/lib/podnuma/pod-resources",
                        "/var/run/nri",
                        "/var/lib/kubelet/pod-resources",
                        "/var/lib/kubelet/config.yaml");
        assertThat(agentHostPaths(Helm.render(plane, "--set", "agent.hostPaths.kubeletRootDir=/data/kubelet/")))
                .as("the operator mounts <root>/pod-resources whatever the trailing slash")
                .contains("/data/kubelet/pod-resources")
                .doesNotContain("/data/kubelet", "/data/kubelet/", "/var/lib/kubelet/pod-resources");
        assertThat(agentHostPaths(Helm.render(plane, "--set", "agent.hostPaths.kubeletRootDir=")))
                .noneMatch(p -> p.contains("pod-resources") && p.startsWith("/var/lib/kubelet"));
    }

    /** The host paths the operator's DaemonSets may mount, as the chart's admission policy lists them. */
    private static List<String> agentHostPaths(Rendered rendered) {
        String json = rendered
                .get(ValidatingAdmissionPolicy.class, OPERATOR + "-daemonsets.podnuma.io")
                .getSpec()
                .getVariables()
                .stream()
                .filter(v -> v.getName().equals("allowedHostPaths"))
                .findFirst()
                .orElseThrow()
                .getExpression();
        try {
            return List.of(new ObjectMapper().readValue(json, String[].class));
        } catch (JsonProcessingException e) {
            throw new AssertionError("the allowed host paths are not a JSON list: " + json, e);
        }
    }

    @Test
    void theAdmissionPolicyMatchesOnlyTheAgentAndCoversNrtWhenEnabled(ControlPlane plane) {
        ValidatingAdmissionPolicy policy =
                Helm.render(plane).get(ValidatingAdmissionPolicy.class, AGENT + ".podnuma.io");
        assertThat(policy.getSpec().getFailurePolicy()).isEqualTo("Fail");
        assertThat(policy.getSpec().getMatchConditions())
                .singleElement()
                .satisfies(m -> assertThat(m.getExpression())
                        .isEqualTo("request.userInfo.username == \"system:serviceaccount:" + NAMESPACE + ":" + AGENT
                                + "\""));
        assertThat(policy.getSpec().getMatchConstraints().getResourceRules())
                .singleElement()
                .satisfies(rule -> {
                    assertThat(rule.getResources()).containsExactly("numanodestates", "numanodestates/status");
                    assertThat(rule.getOperations()).containsExactly("CREATE", "UPDATE", "DELETE");
                });

        Rendered nrt = Helm.render(plane, "--set", "nodeResourceTopology.enabled=true");
        assertThat(nrt.get(ValidatingAdmissionPolicy.class, AGENT + ".podnuma.io")
                        .getSpec()
                        .getMatchConstraints()
                        .getResourceRules())
                .extracting(rule -> rule.getApiGroups().getFirst() + "/"
                        + rule.getResources().getFirst())
                .containsExactly("podnuma.io/numanodestates", "topology.node.k8s.io/noderesourcetopologies");
        assertThat(nrt.get(ValidatingAdmissionPolicyBinding.class, AGENT + ".podnuma.io")
                        .getSpec()
                        .getValidationActions())
                .containsExactly("Deny");

        Rendered off = Helm.render(plane, "--set", "admissionPolicy.enabled=false");
        assertThat(off.all(ValidatingAdmissionPolicy.class)).isEmpty();
        assertThat(off.all(ValidatingAdmissionPolicyBinding.class)).isEmpty();
    }

    @Test
    void theNrtCrdOnlyWhenAskedForAndKept(ControlPlane plane) {
        assertThat(Helm.render(plane, "--set", "nodeResourceTopology.enabled=true")
                        .all(CustomResourceDefinition.class))
                .isEmpty();
        CustomResourceDefinition crd = Helm.render(plane, "--set", "nodeResourceTopology.installCrd=true")
                .get(CustomResourceDefinition.class, "noderesourcetopologies.topology.node.k8s.io");
        assertThat(crd.getMetadata().getAnnotations())
                .containsEntry("helm.sh/resource-policy", "keep")
                .containsKey("api-approved.kubernetes.io");
        assertThat(crd.getSpec().getGroup()).isEqualTo("topology.node.k8s.io");
        assertThat(crd.getSpec().getVersions()).extracting(v -> v.getName()).containsExactly("v1alpha2");
    }

    private static List<String> r(List<PolicyRule> rules) {
        return rules.stream()
                .map(p -> p.getApiGroups() + " " + p.getResources() + " " + p.getVerbs())
                .toList();
    }

    static JsonNode settings(Rendered r) {
        return ChartFiles.yaml(r.get(ConfigMap.class, OPERATOR).getData().get("operator.yaml"));
    }

    private static String checksum(Rendered r) {
        return r.get(Deployment.class, OPERATOR)
                .getSpec()
                .getTemplate()
                .getMetadata()
                .getAnnotations()
                .get("podnuma.io/settings-checksum");
    }

    static Container operatorContainer(Rendered r) {
        return r.get(Deployment.class, OPERATOR)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .getFirst();
    }

    private static EnvVar env(Container c, String name) {
        return c.getEnv().stream()
                .filter(e -> e.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no env " + name + " in " + c.getEnv()));
    }
}
