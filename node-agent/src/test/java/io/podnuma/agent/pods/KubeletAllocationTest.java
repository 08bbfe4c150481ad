package io.podnuma.agent.pods;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Whether the kubelet has allocated a pod's spec, from the pod's and its containers' {@code allocatedResources}. */
class KubeletAllocationTest {

    /** A pod whose spec asks {@code podCpu} (pod level) and {@code appCpu} (its app container). */
    private static PodBuilder pod(String podCpu, String appCpu) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .withUid("u")
                .endMetadata()
                .withNewSpec()
                .withNewResources()
                .withRequests(Map.of("cpu", new Quantity(podCpu), "memory", new Quantity("1Gi")))
                .withLimits(Map.of("cpu", new Quantity(podCpu), "memory", new Quantity("1Gi")))
                .endResources()
                .addNewContainer()
                .withName("app")
                .withNewResources()
                .withRequests(Map.of("cpu", new Quantity(appCpu)))
                .endResources()
                .endContainer()
                .endSpec();
    }

    private static Pod withAllocated(PodBuilder b, String podCpu, String appCpu) {
        Pod p = b.withNewStatus()
                .addNewContainerStatus()
                .withName("app")
                .withAllocatedResources(Map.of("cpu", new Quantity(appCpu)))
                .endContainerStatus()
                .endStatus()
                .build();
        if (podCpu != null) {
            p.getStatus().setAdditionalProperty("allocatedResources", Map.of("cpu", podCpu, "memory", "1Gi"));
        }
        return p;
    }

    @Test
    void aPodWithoutAnAllocationYetIsAsItsSpec() {
        assertThat(KubeletAllocation.of(pod("2", "1").build())).isEqualTo(KubeletAllocation.AS_SPEC);
        assertThat(KubeletAllocation.of(
                        pod("2", "1").withNewStatus().endStatus().build()))
                .isEqualTo(KubeletAllocation.AS_SPEC);
    }

    @Test
    void theSameAmountsInAnotherNotationAreTheSpec() {
        assertThat(KubeletAllocation.of(withAllocated(pod("2", "1"), "2000m", "1000m")))
                .isEqualTo(KubeletAllocation.AS_SPEC);
        assertThat(KubeletAllocation.of(withAllocated(pod("2", "1"), null, "1")))
                .as("a kubelet that reports no pod-level allocation")
                .isEqualTo(KubeletAllocation.AS_SPEC);
    }

    @Test
    void aPodLevelOrContainerResizeTheKubeletHasNotTakenIsBehindTheSpec() {
        assertThat(KubeletAllocation.of(withAllocated(pod("3", "1"), "2", "1")))
                .as("the pod budget 2 → 3, not yet allocated")
                .isEqualTo(KubeletAllocation.BEHIND_SPEC);
        assertThat(KubeletAllocation.of(withAllocated(pod("2", "2"), "2", "1")))
                .as("the app container 1 → 2, not yet allocated")
                .isEqualTo(KubeletAllocation.BEHIND_SPEC);
    }
}
