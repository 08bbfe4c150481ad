package io.podnuma.crds.v1alpha1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.crds.ItSupport;
import io.podnuma.crds.v1alpha1.policy.FailingNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator's way of writing policy status: server-side apply of a fresh object on the status subresource with
 * one fixed field manager.
 */
@ExtendWith(ControlPlaneExtension.class)
class StatusSubresourceIT {

    static final String MANAGER = "podnuma-operator";
    static final PatchContext APPLY_STATUS = new PatchContext.Builder()
            .withPatchType(PatchType.SERVER_SIDE_APPLY)
            .withFieldManager(MANAGER)
            .withForce(true)
            .build();

    @BeforeAll
    static void installCrds(ControlPlane cp) {
        ItSupport.installCrds(cp);
    }

    @BeforeEach
    void createMinimalPolicy(ControlPlane cp) {
        ItSupport.succeeded(cp.kubectl(
                "apply", "-f", Path.of("examples/minimal.yaml").toAbsolutePath().toString()));
    }

    @AfterEach
    void deletePolicies(ControlPlane cp) {
        ItSupport.succeeded(cp.kubectl("delete", "numaresourcepolicies", "--all", "--wait=true"));
    }

    private static Condition condition(String type, String status, String reason) {
        return new ConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withReason(reason)
                .withMessage(reason + " on 3 nodes")
                .withLastTransitionTime("2026-05-01T12:00:00Z")
                .withObservedGeneration(1L)
                .build();
    }

    /** A fresh object carrying only the intent, never one read back from the server. */
    private static NumaResourcePolicy statusOnly(List<Condition> conditions, int ready) {
        NumaResourcePolicy policy = new NumaResourcePolicy();
        policy.getMetadata().setName("minimal");
        policy.setStatus(new NumaResourcePolicyStatus(
                1L,
                conditions,
                3,
                ready,
                3,
                3 - ready,
                12,
                4,
                ready == 3 ? null : List.of(new FailingNode("node-c", "KubeletConflict", "cpuManagerPolicy: static"))));
        return policy;
    }

    private static NumaResourcePolicy apply(ControlPlane cp, NumaResourcePolicy intent) {
        return cp.client().resource(intent).subresource("status").patch(APPLY_STATUS, intent);
    }

    @Test
    void statusIsAppliedWithTheOperatorsFieldManagerAndLeavesTheSpecAlone(ControlPlane cp) {
        apply(cp, statusOnly(List.of(condition("Ready", "False", "NodesDegraded")), 2));

        JsonNode stored = ItSupport.getJson(cp, "nrp", "minimal");
        assertThat(stored.at("/status/nodesMatched").asInt()).isEqualTo(3);
        assertThat(stored.at("/status/nodesReady").asInt()).isEqualTo(2);
        assertThat(stored.at("/status/failingNodes/0/node").asText()).isEqualTo("node-c");
        assertThat(stored.at("/status/conditions/0/type").asText()).isEqualTo("Ready");
        assertThat(stored.at("/spec/cpuManager/reservedCpuCount").asInt()).isEqualTo(2);

        JsonNode managed = ItSupport.succeededJson(cp, "get", "nrp", "minimal", "--show-managed-fields", "-o", "json")
                .at("/metadata/managedFields");
        assertThat(managed.findParents("manager"))
                .filteredOn(m -> m.get("manager").asText().equals(MANAGER))
                .singleElement()
                .satisfies(m -> {
                    assertThat(m.get("operation").asText()).isEqualTo("Apply");
                    assertThat(m.get("subresource").asText()).isEqualTo("status");
                });
    }

    @Test
    void reapplyingTheSameStatusWritesNothing(ControlPlane cp) {
        NumaResourcePolicy intent = statusOnly(List.of(condition("Ready", "True", "AllNodesReady")), 3);
        String first = apply(cp, intent).getMetadata().getResourceVersion();

        String second = apply(cp, intent).getMetadata().getResourceVersion();

        assertThat(second).isEqualTo(first);
    }

    @Test
    void conditionsMergeByTypeAndDropWhatTheManagerNoLongerApplies(ControlPlane cp) {
        apply(
                cp,
                statusOnly(
                        List.of(
                                condition("Ready", "False", "NodesDegraded"),
                                condition("Degraded", "True", "AgentFailing")),
                        2));
        apply(cp, statusOnly(List.of(condition("Ready", "True", "AllNodesReady")), 3));

        JsonNode status = ItSupport.getJson(cp, "nrp", "minimal").get("status");
        assertThat(status.get("conditions").findValuesAsText("type")).containsExactly("Ready");
        assertThat(status.at("/conditions/0/reason").asText()).isEqualTo("AllNodesReady");
        assertThat(status.has("failingNodes")).isFalse();
    }

    @Test
    void malformedStatusIsRejected(ControlPlane cp) {
        Condition noReason = condition("Ready", "True", null);
        NumaResourcePolicy intent = statusOnly(List.of(noReason), 3);

        assertThatThrownBy(() -> apply(cp, intent))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(422))
                .hasMessageContaining("status.conditions[0].reason: Required value");
    }

    @Test
    void printerColumnsShowTheRollout(ControlPlane cp) {
        apply(cp, statusOnly(List.of(condition("Ready", "False", "NodesDegraded")), 2));

        List<String> lines = ItSupport.succeeded(cp.kubectl("get", "nrp", "minimal"))
                .stdout()
                .lines()
                .toList();

        assertThat(lines.get(1).split("\\s+")).containsSubsequence("none", "container", "static", "3", "2", "False");
    }
}
