package io.podnuma.operator.assign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CandidatesTest {

    static NumaResourcePolicy policy(String name, Integer priority, LabelSelector selector) {
        NumaResourcePolicy p = new NumaResourcePolicy(
                name, new NumaResourcePolicySpec(selector, priority, null, null, null, null, null, null));
        p.getMetadata().setUid("uid-" + name);
        p.getMetadata().setCreationTimestamp("2026-03-01T10:00:00Z");
        return p;
    }

    @Test
    void aPolicyIsReadFromItsApiObject() {
        NumaResourcePolicy p = policy("gpu", 7, new LabelSelector(null, Map.of("gpu", "true")));
        PolicyCandidate c = PolicyCandidate.of(p);
        assertThat(c.name()).isEqualTo("gpu");
        assertThat(c.uid()).isEqualTo("uid-gpu");
        assertThat(c.priority()).isEqualTo(7);
        assertThat(c.createdAt()).isEqualTo(Instant.parse("2026-03-01T10:00:00Z"));
        assertThat(c.deleting()).isFalse();
        assertThat(c.selector().selects(Map.of("gpu", "true"))).isTrue();
        assertThat(c.selector().selects(Map.of())).isFalse();
    }

    @Test
    void anUnsetPriorityIsZeroAndADeletionTimestampMeansDeleting() {
        NumaResourcePolicy p = policy("all", null, new LabelSelector());
        p.getMetadata().setDeletionTimestamp("2026-03-02T10:00:00Z");
        PolicyCandidate c = PolicyCandidate.of(p);
        assertThat(c.priority()).isZero();
        assertThat(c.deleting()).isTrue();
        assertThat(c.selector()).isEqualTo(NodeSelector.ALL);
    }

    @Test
    void aPolicyNotReadFromTheApiIsRefused() {
        NumaResourcePolicy p = policy("new", 0, new LabelSelector());
        p.getMetadata().setCreationTimestamp(null);
        assertThatThrownBy(() -> PolicyCandidate.of(p))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("policy new has no creationTimestamp");
    }

    @Test
    void aNodeIsReadWithItsPolicyLabel() {
        NodeCandidate n = NodeCandidate.of(new NodeBuilder()
                .withNewMetadata()
                .withName("n1")
                .withLabels(Map.of(NodeCandidate.POLICY_LABEL, "gpu", "zone", "a"))
                .endMetadata()
                .build());
        assertThat(n.name()).isEqualTo("n1");
        assertThat(n.labelledPolicy()).contains("gpu");
        NodeCandidate bare = NodeCandidate.of(
                new NodeBuilder().withNewMetadata().withName("n2").endMetadata().build());
        assertThat(bare.labels()).isEmpty();
        assertThat(bare.labelledPolicy()).isEqualTo(Optional.empty());
    }
}
