package io.podnuma.helm.privilege;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.helm.ChartFiles;
import io.podnuma.helm.privilege.Privileges.Holder;
import io.podnuma.helm.privilege.Privileges.Scope;
import io.podnuma.testkit.GeneratedCrds;
import io.podnuma.testkit.agent.AgentTokens;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The chart installed on the real API server, and what its two ServiceAccounts may do: {@code kubectl auth can-i
 * --list} in the release namespace, in {@code default} and in a namespace of nobody's, each equal to
 * {@link Privileges} (every optional part on: nodeResourceTopology, metrics.secure); and the refusals an agent or the operator meets when it reaches for a Secret.
 */
@ExtendWith(ControlPlaneExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LeastPrivilegeIT {

    static final String RELEASE = "priv";
    static final String NAMESPACE = "podnuma-priv-it";
    static final String OTHER = "podnuma-priv-other";
    static final String AGENT_SA = "priv-podnuma-agent";
    static final String OPERATOR_SA = "priv-podnuma-operator";
    static final String PROBE_SECRET = "priv-probe";

    /** The install turns on every optional part, so each optional grant is checked live too. */
    static final Set<Privileges.Part> EVERY_PART = Set.of(Privileges.Part.values());

    private ControlPlane plane;
    private String nodeA;

    @BeforeAll
    void install(ControlPlane plane) {
        this.plane = plane;
        nodeA = plane.ensureNodes(1).getFirst();
        plane.installCrds(GeneratedCrds.nodeResourceTopologies());
        plane.ensureNamespace(OTHER);
        ChartFiles.install(
                plane,
                RELEASE,
                NAMESPACE,
                "operator.replicas=0,nodeResourceTopology.enabled=true,metrics.secure.enabled=true",
                "120s");
        plane.client()
                .resource(AgentTokens.agentPod("agent-a", NAMESPACE, AGENT_SA, nodeA))
                .create();
        plane.client()
                .resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName(PROBE_SECRET)
                        .withNamespace(NAMESPACE)
                        .endMetadata()
                        .withStringData(Map.of("password", "not for podnuma"))
                        .build())
                .create();
    }

    @AfterAll
    void uninstall() {
        plane.helm("uninstall", RELEASE, "--namespace", NAMESPACE, "--wait").assertSuccess();
        plane.client().namespaces().withName(NAMESPACE).delete();
        plane.client().namespaces().withName(OTHER).delete();
    }

    @Test
    void theOperatorMayDoWhatTheMatrixSaysAndNothingMore() {
        assertMatrix(Holder.OPERATOR, OPERATOR_SA);
    }

    @Test
    void theAgentMayDoWhatTheMatrixSaysAndNothingMore() {
        assertMatrix(Holder.AGENT, AGENT_SA);
    }

    @Test
    void theAgentOfANodeReadsNoSecret() {
        try (KubernetesClient agent =
                AgentTokens.clientWithToken(plane, AgentTokens.boundToken(plane, NAMESPACE, AGENT_SA, "agent-a"))) {
            assertSecretsRefused(agent, AGENT_SA);
        }
    }

    @Test
    void theOperatorReadsNoSecret() {
        try (KubernetesClient operator =
                AgentTokens.clientWithToken(plane, AgentTokens.unboundToken(plane, NAMESPACE, OPERATOR_SA))) {
            assertSecretsRefused(operator, OPERATOR_SA);
        }
    }

    @Test
    void theOperatorChangesOnlyThePolicyLabelOfANode() {
        try (KubernetesClient operator =
                AgentTokens.clientWithToken(plane, AgentTokens.unboundToken(plane, NAMESPACE, OPERATOR_SA))) {
            String refused = "nodes \"" + nodeA + "\" is forbidden: ValidatingAdmissionPolicy '" + OPERATOR_SA
                    + ".podnuma.io' with binding '" + OPERATOR_SA
                    + ".podnuma.io' denied request: the podnuma operator may change only the label podnuma.io/policy"
                    + " of a Node, not its ";
            // Policies reach the admission chain through informers: probe until another label is refused.
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertThat(refusal(operator, "{\"metadata\":{\"labels\":{\"team\":\"x\"}}}"))
                            .isEqualTo(refused + "other labels"));
            assertThat(refusal(operator, "{\"metadata\":{\"annotations\":{\"team\":\"x\"}}}"))
                    .isEqualTo(refused + "annotations");
            assertThat(refusal(operator, "{\"spec\":{\"unschedulable\":true}}")).isEqualTo(refused + "spec");
            assertThat(refusal(operator, "{\"metadata\":{\"finalizers\":[\"example.com/hold\"]}}"))
                    .isEqualTo(refused + "finalizers");
            assertThat(refusal(
                            operator,
                            "{\"metadata\":{\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                                    + "\"name\":\"owner\",\"uid\":\"00000000-0000-0000-0000-000000000001\"}]}}"))
                    .isEqualTo(refused + "owner references");
            assertThat(refusal(operator, "{\"metadata\":{\"labels\":{\"podnuma.io/policy\":\"p\",\"team\":\"x\"}}}"))
                    .isEqualTo(refused + "other labels");

            // What assignment does: set the label, then take it off.
            patch(operator, "{\"metadata\":{\"labels\":{\"podnuma.io/policy\":\"p\"}}}");
            assertThat(plane.client()
                            .nodes()
                            .withName(nodeA)
                            .get()
                            .getMetadata()
                            .getLabels())
                    .containsEntry("podnuma.io/policy", "p")
                    .doesNotContainKey("team");
            patch(operator, "{\"metadata\":{\"labels\":{\"podnuma.io/policy\":null}}}");
            assertThat(plane.client()
                            .nodes()
                            .withName(nodeA)
                            .get()
                            .getMetadata()
                            .getLabels())
                    .doesNotContainKey("podnuma.io/policy");
            assertThat(plane.client().nodes().withName(nodeA).get().getSpec().getUnschedulable())
                    .isNotEqualTo(Boolean.TRUE);
        }
    }

    private Object patch(KubernetesClient client, String mergePatch) {
        return client.nodes().withName(nodeA).patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
    }

    /** The API server's message refusing {@code mergePatch} on node A, or a failure if it was accepted. */
    private String refusal(KubernetesClient client, String mergePatch) {
        KubernetesClientException e =
                catchThrowableOfType(KubernetesClientException.class, () -> patch(client, mergePatch));
        assertThat(e).as("refused: %s", mergePatch).isNotNull();
        assertThat(e.getCode()).isEqualTo(403);
        return e.getStatus().getMessage();
    }

    private void assertMatrix(Holder holder, String serviceAccount) {
        Map<String, Scope> namespaces =
                Map.of(NAMESPACE, Scope.RELEASE_NAMESPACE, "default", Scope.DEFAULT_NAMESPACE, OTHER, Scope.CLUSTER);
        namespaces.forEach((namespace, scope) -> {
            String table = plane.kubectl(
                            "auth",
                            "can-i",
                            "--list",
                            "--as=system:serviceaccount:" + NAMESPACE + ":" + serviceAccount,
                            "--namespace",
                            namespace)
                    .assertSuccess()
                    .stdout();
            Set<CanIList.Row> expected = CanIList.rowsOf(Privileges.inForce(holder, scope, EVERY_PART));
            assertThat(CanIList.parse(table))
                    .as("%s in namespace %s:%n%s", serviceAccount, namespace, table)
                    .containsExactlyInAnyOrderElementsOf(expected);
        });
    }

    /**
     * Reading a Secret by name, listing a namespace's and every namespace's: each refused by RBAC, word for word; and
     * no get, list or watch anywhere.
     */
    private void assertSecretsRefused(KubernetesClient client, String serviceAccount) {
        String user = "User \"system:serviceaccount:" + NAMESPACE + ":" + serviceAccount + "\"";
        Map<String, Function<KubernetesClient, Object>> reads = Map.of(
                "secrets \"" + PROBE_SECRET + "\" is forbidden: " + user
                        + " cannot get resource \"secrets\" in API group \"\" in the namespace \"" + NAMESPACE + "\"",
                c -> c.secrets().inNamespace(NAMESPACE).withName(PROBE_SECRET).get(),
                "secrets is forbidden: " + user
                        + " cannot list resource \"secrets\" in API group \"\" in the namespace \"kube-system\"",
                c -> c.secrets().inNamespace("kube-system").list(),
                "secrets is forbidden: " + user + " cannot list resource \"secrets\" in API group \"\" at the cluster"
                        + " scope",
                c -> c.secrets().inAnyNamespace().list());
        reads.forEach((refusal, read) -> {
            KubernetesClientException e =
                    catchThrowableOfType(KubernetesClientException.class, () -> read.apply(client));
            assertThat(e).as(refusal).isNotNull();
            assertThat(e.getCode()).as(refusal).isEqualTo(403);
            assertThat(e.getStatus().getMessage()).isEqualTo(refusal);
        });
        assertThat(List.of("get", "list", "watch"))
                .allSatisfy(verb -> assertThat(plane.kubectl(
                                        "auth",
                                        "can-i",
                                        verb,
                                        "secrets",
                                        "--all-namespaces",
                                        "--as=system:serviceaccount:" + NAMESPACE + ":" + serviceAccount)
                                .stdout()
                                .strip())
                        .as(verb)
                        .isEqualTo("no"));
    }
}
