package io.podnuma.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.crds.v1alpha1.NumaNodeStateStatus;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PolicyMappersTest {

    private static NumaResourcePolicy policy(String name, String pool) {
        return new NumaResourcePolicy(
                name,
                new NumaResourcePolicySpec(
                        new LabelSelector(null, Map.of("pool", pool)), 0, null, null, null, null, null, null));
    }

    private static final List<NumaResourcePolicy> POLICIES =
            List.of(policy("a", "x"), policy("b", "x"), policy("c", "y"));

    private static Node node(Map<String, String> labels) {
        return new NodeBuilder()
                .withNewMetadata()
                .withName("n")
                .withLabels(new HashMap<>(labels))
                .endMetadata()
                .build();
    }

    @Test
    void aNodeConcernsEveryPolicyThatSelectsItAndThePolicyItsLabelNames() {
        var mapper = PolicyMappers.nodes(POLICIES::stream);
        assertThat(mapper.toPrimaryResourceIDs(node(Map.of("pool", "x"))))
                .containsExactlyInAnyOrder(new ResourceID("a"), new ResourceID("b"));
        // Left the selector of the policy it is labelled with: that policy must still hear of it to let it go.
        assertThat(mapper.toPrimaryResourceIDs(node(Map.of("pool", "z", "podnuma.io/policy", "c"))))
                .containsExactly(new ResourceID("c"));
        assertThat(mapper.toPrimaryResourceIDs(node(Map.of()))).isEmpty();
    }

    @Test
    void onlyLabelChangesOfANodeTriggerAReconcile() {
        Node before = node(Map.of("pool", "x"));
        Node heartbeat = new NodeBuilder(before)
                .withNewStatus()
                .withPhase("Running")
                .endStatus()
                .build();
        assertThat(PolicyMappers.labelsChanged(heartbeat, before)).isFalse();
        assertThat(PolicyMappers.labelsChanged(node(Map.of("pool", "y")), before))
                .isTrue();
    }

    @Test
    void aNodeStateConcernsThePolicyItReportsAndThePolicyItsNodeIsLabelledWith() {
        NumaNodeState state = new NumaNodeState("n");
        state.setStatus(new NumaNodeStateStatus("old", "h", null, null, null, 0, List.of(), List.of(), null));
        var mapper = PolicyMappers.nodeStates(name -> Optional.of(node(Map.of("podnuma.io/policy", "new"))));
        assertThat(mapper.toPrimaryResourceIDs(state))
                .containsExactlyInAnyOrder(new ResourceID("old"), new ResourceID("new"));
        assertThat(PolicyMappers.nodeStates(name -> Optional.empty()).toPrimaryResourceIDs(new NumaNodeState("n")))
                .isEmpty();
    }

    @Test
    void anAgentObjectConcernsThePolicyInItsLabel() {
        ConfigMap labelled = new ConfigMapBuilder()
                .withNewMetadata()
                .withName("podnuma-agent-a")
                .withNamespace("ops")
                .withLabels(Map.of("podnuma.io/policy", "a"))
                .endMetadata()
                .build();
        assertThat(PolicyMappers.<ConfigMap>labelled().toPrimaryResourceIDs(labelled))
                .containsExactly(new ResourceID("a"));
        assertThat(PolicyMappers.<ConfigMap>labelled()
                        .toPrimaryResourceIDs(new ConfigMapBuilder()
                                .withNewMetadata()
                                .withName("x")
                                .endMetadata()
                                .build()))
                .isEmpty();
    }
}
