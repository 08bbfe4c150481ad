package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KwokNodesTest {

    @Test
    void desiredNodeIsKwokManagedUntaintedAndCarriesItsResources() {
        Node node = KwokNodes.desired("n1", Map.of("pool", "numa", KwokNodes.KWOK_LABEL, "false"), Map.of("cpu", "8"));
        assertThat(node.getMetadata().getLabels())
                .containsEntry("kubernetes.io/hostname", "n1")
                .containsEntry("pool", "numa")
                .as("kwok must keep managing the node whatever the caller passes")
                .containsEntry(KwokNodes.KWOK_LABEL, "true");
        assertThat(node.getSpec().getTaints()).isNullOrEmpty();
        assertThat(node.getStatus().getAllocatable()).containsExactly(Map.entry("cpu", new Quantity("8")));
        assertThat(node.getStatus().getCapacity()).isEqualTo(node.getStatus().getAllocatable());
    }

    @Test
    void defaultNodesGetTheDefaultAllocatable() {
        Node node = KwokNodes.desired(KwokNodes.nodeName(3));
        assertThat(node.getMetadata().getName()).isEqualTo("kwok-node-3");
        assertThat(node.getStatus().getAllocatable()).containsEntry("pods", new Quantity("110"));
    }

    private static Node node(String readyStatus, boolean tainted) {
        NodeBuilder builder = new NodeBuilder()
                .withNewMetadata()
                .withName("n")
                .endMetadata()
                .withNewSpec()
                .endSpec()
                .withNewStatus()
                .addNewCondition()
                .withType("Ready")
                .withStatus(readyStatus)
                .endCondition()
                .endStatus();
        if (tainted) {
            builder.editSpec()
                    .addNewTaint()
                    .withKey("node.kubernetes.io/not-ready")
                    .withEffect("NoSchedule")
                    .endTaint()
                    .endSpec();
        }
        return builder.build();
    }

    @Test
    void schedulableMeansReadyAndWithoutTaints() {
        assertThat(KwokNodes.schedulable(node("True", false))).isTrue();
        assertThat(KwokNodes.schedulable(node("True", true))).isFalse();
        assertThat(KwokNodes.schedulable(node("False", false))).isFalse();
        assertThat(KwokNodes.schedulable(node("Unknown", false))).isFalse();
        assertThat(KwokNodes.schedulable(null)).isFalse();
        assertThat(KwokNodes.schedulable(new NodeBuilder().build())).isFalse();
    }
}
