package io.podnuma.operator.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrunedNodeStoreTest {

    private static Node fullNode() {
        return new NodeBuilder()
                .withNewMetadata()
                .withName("worker-1")
                .withUid("u-1")
                .withResourceVersion("42")
                .withCreationTimestamp("2026-12-01T10:00:00Z")
                .withLabels(Map.of("podnuma.io/policy", "a", "pool", "p1"))
                .withAnnotations(Map.of("csi.volume.kubernetes.io/nodeid", "{\"x\":\"y\"}"))
                .addNewManagedField()
                .withManager("kubelet")
                .endManagedField()
                .endMetadata()
                .withNewSpec()
                .withPodCIDR("10.244.0.0/24")
                .withTaints(new Taint("NoSchedule", "dedicated", null, "gpu"))
                .endSpec()
                .withNewStatus()
                .addToCapacity("cpu", new Quantity("32"))
                .addNewImage()
                .withNames("registry/app@sha256:abc")
                .withSizeBytes(1L)
                .endImage()
                .endStatus()
                .build();
    }

    @Test
    void keepsWhatTheOperatorReadsAndDropsTheRest() {
        Node full = fullNode();
        Node pruned = PrunedNodeStore.prune(full);
        assertThat(pruned.getMetadata().getName()).isEqualTo("worker-1");
        assertThat(pruned.getMetadata().getUid()).isEqualTo("u-1");
        assertThat(pruned.getMetadata().getResourceVersion()).isEqualTo("42");
        assertThat(pruned.getMetadata().getCreationTimestamp()).isEqualTo("2026-12-01T10:00:00Z");
        assertThat(pruned.getMetadata().getLabels()).isEqualTo(Map.of("podnuma.io/policy", "a", "pool", "p1"));
        assertThat(pruned.getSpec().getTaints()).containsExactly(new Taint("NoSchedule", "dedicated", null, "gpu"));
        assertThat(pruned.getStatus()).isNull();
        assertThat(pruned.getSpec().getPodCIDR()).isNull();
        assertThat(pruned.getMetadata().getAnnotations()).isNullOrEmpty();
        assertThat(pruned.getMetadata().getManagedFields()).isNullOrEmpty();
        // The informer's object is left as it was.
        assertThat(full.getStatus().getImages()).hasSize(1);
    }

    @Test
    void theStoreHoldsPrunedNodesUnderTheirName() {
        PrunedNodeStore store = new PrunedNodeStore();
        Node full = fullNode();
        assertThat(store.put(store.getKey(full), full)).isNull();
        assertThat(store.getKey(full)).isEqualTo("worker-1");
        assertThat(store.get("worker-1").getStatus()).isNull();
        assertThat(store.get("worker-1").getMetadata().getLabels()).containsEntry("podnuma.io/policy", "a");
        Node untainted = new NodeBuilder(full).editSpec().withTaints().endSpec().build();
        assertThat(store.put("worker-1", untainted).getMetadata().getResourceVersion())
                .isEqualTo("42");
        assertThat(store.get("worker-1").getSpec().getTaints()).isEmpty();
        assertThat(store.size()).isEqualTo(1);
    }
}
