package io.podnuma.helm;

import static io.podnuma.helm.ChartTemplateIT.AGENT;
import static io.podnuma.helm.ChartTemplateIT.OPERATOR;
import static io.podnuma.helm.ChartTemplateIT.operatorContainer;
import static io.podnuma.helm.ChartTemplateIT.settings;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.Validation;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.testkit.chart.PodnumaChart;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The knobs a platform team expects of a chart (image digests, ServiceAccounts, rbac.create, extra env and args,
 * security contexts, namespaceOverride): each rendered by the real helm and read back.
 */
@ExtendWith(ControlPlaneExtension.class)
class ChartKnobsIT {

    private static final String OPERATOR_DIGEST = "sha256:" + "a".repeat(64);
    private static final String AGENT_DIGEST = "sha256:" + "b".repeat(64);
    private static final String DAEMONSETS_POLICY = OPERATOR + "-daemonsets.podnuma.io";

    @Test
    void aDigestPinsBothImagesAndTheAgentsReachesTheOperatorAndTheDaemonSetPolicy(ControlPlane plane) {
        Rendered r = Helm.render(
                plane,
                "--set",
                "operator.image.digest=" + OPERATOR_DIGEST + ",agent.image.digest=" + AGENT_DIGEST
                        + ",agent.image.tag=ignored");
        assertThat(operatorContainer(r).getImage()).isEqualTo("podnuma.local/operator@" + OPERATOR_DIGEST);
        String agentImage = "podnuma.local/node-agent@" + AGENT_DIGEST;
        assertThat(settings(r).path("agentImage").asText()).isEqualTo(agentImage);
        assertThat(validation(r, DAEMONSETS_POLICY, "c.image"))
                .isEqualTo("variables.pod.containers.all(c, c.image == \"" + agentImage + "\")");
        // Without a digest the tag (default: appVersion) as before.
        assertThat(settings(Helm.render(plane)).path("agentImage").asText())
                .isEqualTo("podnuma.local/node-agent:0.1.0-SNAPSHOT");
    }

    @Test
    void namedServiceAccountsAreMadeBoundAndNamedByTheAdmissionPolicies(ControlPlane plane) {
        Rendered r = Helm.render(
                plane,
                "--set",
                "operator.serviceAccount.name=ops,agent.serviceAccount.name=pinner",
                "--set-string",
                "operator.serviceAccount.annotations.iam\\.example/role=operator,"
                        + "agent.serviceAccount.annotations.iam\\.example/role=agent");
        assertThat(r.get(ServiceAccount.class, "ops").getMetadata().getAnnotations())
                .isEqualTo(Map.of("iam.example/role", "operator"));
        assertThat(r.get(ServiceAccount.class, "pinner").getMetadata().getAnnotations())
                .isEqualTo(Map.of("iam.example/role", "agent"));
        assertThat(r.all(ServiceAccount.class))
                .extracting(sa -> sa.getMetadata().getName())
                .containsExactlyInAnyOrder("ops", "pinner");
        assertTheNamesAreUsedEverywhere(r, "ops", "pinner");
        // The objects keep their names: only the identities change.
        assertThat(r.find(ClusterRoleBinding.class, OPERATOR)).isPresent();
        assertThat(r.find(ClusterRoleBinding.class, AGENT)).isPresent();
    }

    @Test
    void serviceAccountsTheChartDoesNotMakeAreStillBoundAndNamed(ControlPlane plane) {
        Rendered r = Helm.render(
                plane,
                "--set",
                "operator.serviceAccount.create=false,agent.serviceAccount.create=false,"
                        + "agent.serviceAccount.name=pinner");
        assertThat(r.all(ServiceAccount.class)).isEmpty();
        // An unnamed one keeps the chart's name (never the namespace's default ServiceAccount).
        assertTheNamesAreUsedEverywhere(r, OPERATOR, "pinner");
    }

    @Test
    void rbacCreateFalseRendersNoRbacObjectButKeepsTheIdentitiesAndPolicies(ControlPlane plane) {
        Rendered r = Helm.render(
                plane, "--set", "rbac.create=false,metrics.secure.enabled=true,nodeResourceTopology.enabled=true");
        assertThat(r.objects())
                .extracting(HasMetadata::getApiVersion)
                .noneMatch(v -> v.startsWith("rbac.authorization.k8s.io/"));
        assertThat(r.all(ServiceAccount.class))
                .extracting(sa -> sa.getMetadata().getName())
                .containsExactlyInAnyOrder(OPERATOR, AGENT, "r-podnuma-metrics-scraper");
        assertThat(r.all(ValidatingAdmissionPolicy.class)).hasSize(3);
        assertThat(r.get(Deployment.class, OPERATOR)
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getServiceAccountName())
                .isEqualTo(OPERATOR);
        // On by default.
        assertThat(Helm.render(plane).objects())
                .extracting(HasMetadata::getApiVersion)
                .filteredOn(v -> v.startsWith("rbac.authorization.k8s.io/"))
                .hasSize(8);
    }

    @Test
    void extraEnvAndArgsFollowTheOperatorsOwn(ControlPlane plane) {
        Container c = operatorContainer(Helm.render(
                plane,
                "--set-json",
                "operator.extraEnv=[{\"name\":\"JAVA_TOOL_OPTIONS\",\"value\":\"-Xlog:gc\"},"
                        + "{\"name\":\"NODE\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"spec.nodeName\"}}}]",
                "--set-json",
                "operator.extraArgs=[\"--errorWindow\",\"1m\"]"));
        assertThat(c.getArgs()).containsExactly("run", "--config", "/etc/podnuma/operator.yaml", "--errorWindow", "1m");
        assertThat(c.getEnv())
                .extracting(EnvVar::getName)
                .containsExactly("PODNUMA_OPERATOR_NAMESPACE", "POD_NAME", "JAVA_TOOL_OPTIONS", "NODE");
        assertThat(c.getEnv().get(2).getValue()).isEqualTo("-Xlog:gc");
        assertThat(c.getEnv().get(3).getValueFrom().getFieldRef().getFieldPath())
                .isEqualTo("spec.nodeName");
    }

    @Test
    void theOperatorsSecurityContextsCanBeChanged(ControlPlane plane) {
        Deployment d = Helm.render(
                        plane,
                        "--set",
                        "operator.podSecurityContext.runAsUser=1001,operator.podSecurityContext.fsGroup=null,"
                                + "operator.securityContext.runAsNonRoot=true")
                .get(Deployment.class, OPERATOR);
        PodSpec pod = d.getSpec().getTemplate().getSpec();
        assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(1001L);
        assertThat(pod.getSecurityContext().getFsGroup())
                .as("dropped with null")
                .isNull();
        assertThat(pod.getSecurityContext().getRunAsGroup())
                .as("the other defaults stay")
                .isEqualTo(65532L);
        var container = pod.getContainers().getFirst().getSecurityContext();
        assertThat(container.getRunAsNonRoot()).isTrue();
        assertThat(container.getReadOnlyRootFilesystem()).isTrue();
        assertThat(container.getAllowPrivilegeEscalation()).isFalse();
        assertThat(container.getCapabilities().getDrop()).containsExactly("ALL");
    }

    @Test
    void namespaceOverrideMovesEveryNamespacedObjectAndTheIdentities(ControlPlane plane) {
        Rendered r = Helm.render(plane, "--set", "namespaceOverride=numa,metrics.secure.enabled=true");
        assertThat(r.objects())
                .filteredOn(o -> o.getMetadata().getNamespace() != null)
                .allSatisfy(o -> assertThat(o.getMetadata().getNamespace())
                        .as(o.getKind() + "/" + o.getMetadata().getName())
                        // The policies' Events go to default, whatever the operator's namespace.
                        .isEqualTo(o.getMetadata().getName().endsWith("-events") ? "default" : "numa"));
        assertThat(settings(r).path("namespace").asText()).isEqualTo("numa");
        assertThat(r.all(ClusterRoleBinding.class))
                .flatExtracting(ClusterRoleBinding::getSubjects)
                .extracting(Subject::getNamespace)
                .containsOnly("numa");
        assertThat(r.all(RoleBinding.class))
                .flatExtracting(RoleBinding::getSubjects)
                .extracting(Subject::getNamespace)
                .containsOnly("numa");
        assertThat(r.all(ValidatingAdmissionPolicy.class))
                .extracting(p -> p.getSpec().getMatchConditions().getFirst().getExpression())
                .allSatisfy(e -> assertThat(e).contains("system:serviceaccount:numa:"));
    }

    @Test
    void theAgentsExtrasReachTheOperatorAndTheDaemonSetPolicyAllowsExactlyThem(ControlPlane plane) {
        List<String> args = new ArrayList<>(List.of("--set", "agent.apiServer=10.0.0.1:6443"));
        args.addAll(PodnumaChart.AGENT_EXTRAS_ARGS);
        Rendered r = Helm.render(plane, args.toArray(String[]::new));
        JsonNode settings = settings(r);
        assertThat(settings.path("agentExtraEnv").toString())
                .isEqualTo(
                        "[{\"name\":\"JAVA_TOOL_OPTIONS\",\"value\":\"-Xlog:gc\"},{\"name\":\"EMPTY\",\"value\":\"\"}]");
        assertThat(settings.path("agentExtraArgs").toString()).isEqualTo("[\"--log-level\",\"debug\"]");
        assertThat(settings.path("agentAffinity")
                        .at("/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms/0"
                                + "/matchExpressions/0/values/0")
                        .asText())
                .isEqualTo("amd64");
        assertThat(validation(r, DAEMONSETS_POLICY, "c.args"))
                .isEqualTo("variables.pod.containers.all(c, has(c.args) && c.args =="
                        + " [\"run\",\"--config\",\"/etc/podnuma/agent.yaml\",\"--log-level\",\"debug\"])");
        assertThat(variable(r, "allowedEnv"))
                .as("the API server pair, then the extras; an empty value as none (as the API server stores it)")
                .isEqualTo("[{\"name\":\"KUBERNETES_SERVICE_HOST\",\"value\":\"10.0.0.1\"},"
                        + "{\"name\":\"KUBERNETES_SERVICE_PORT\",\"value\":\"6443\"},"
                        + "{\"name\":\"JAVA_TOOL_OPTIONS\",\"value\":\"-Xlog:gc\"},{\"name\":\"EMPTY\"}]");
    }

    @Test
    void withoutExtrasTheSettingsFileAndItsChecksumAreAsBefore(ControlPlane plane) {
        Rendered defaults = Helm.render(plane);
        assertThat(settings(defaults).has("agentExtraEnv")).isFalse();
        assertThat(settings(defaults).has("agentExtraArgs")).isFalse();
        assertThat(settings(defaults).has("agentAffinity")).isFalse();
        assertThat(validation(defaults, DAEMONSETS_POLICY, "c.args"))
                .endsWith("c.args == [\"run\",\"--config\",\"/etc/podnuma/agent.yaml\"])");
        assertThat(variable(defaults, "allowedEnv")).isEqualTo("[]");
    }

    /** The expression of one variable of the DaemonSet policy. */
    private static String variable(Rendered r, String variable) {
        return r.get(ValidatingAdmissionPolicy.class, DAEMONSETS_POLICY).getSpec().getVariables().stream()
                .filter(v -> v.getName().equals(variable))
                .findFirst()
                .orElseThrow()
                .getExpression();
    }

    private static void assertTheNamesAreUsedEverywhere(Rendered r, String operatorSa, String agentSa) {
        assertThat(r.get(Deployment.class, OPERATOR)
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getServiceAccountName())
                .isEqualTo(operatorSa);
        assertThat(settings(r).path("agentServiceAccount").asText()).isEqualTo(agentSa);
        assertThat(r.get(ClusterRoleBinding.class, OPERATOR).getSubjects())
                .extracting(Subject::getName)
                .containsExactly(operatorSa);
        assertThat(r.all(RoleBinding.class))
                .flatExtracting(RoleBinding::getSubjects)
                .extracting(Subject::getName)
                .containsOnly(operatorSa);
        assertThat(r.get(ClusterRoleBinding.class, AGENT).getSubjects())
                .extracting(Subject::getName)
                .containsExactly(agentSa);
        assertThat(matchedUser(r, AGENT + ".podnuma.io")).isEqualTo("system:serviceaccount:podnuma-system:" + agentSa);
        assertThat(matchedUser(r, OPERATOR + ".podnuma.io"))
                .isEqualTo("system:serviceaccount:podnuma-system:" + operatorSa);
        assertThat(matchedUser(r, DAEMONSETS_POLICY)).isEqualTo("system:serviceaccount:podnuma-system:" + operatorSa);
        assertThat(validation(r, DAEMONSETS_POLICY, "serviceAccountName"))
                .contains("variables.pod.serviceAccountName == \"" + agentSa + "\"");
    }

    /** The user name in the policy's match condition. */
    private static String matchedUser(Rendered r, String policy) {
        String expression = r.get(ValidatingAdmissionPolicy.class, policy)
                .getSpec()
                .getMatchConditions()
                .getFirst()
                .getExpression();
        return expression.replaceFirst("^request\\.userInfo\\.username == \"(.*)\"$", "$1");
    }

    /** The one validation expression of the policy that mentions {@code marker}. */
    private static String validation(Rendered r, String policy, String marker) {
        List<String> matching = r.get(ValidatingAdmissionPolicy.class, policy).getSpec().getValidations().stream()
                .map(Validation::getExpression)
                .filter(e -> e.contains(marker))
                .toList();
        assertThat(matching).hasSize(1);
        return matching.getFirst();
    }
}
