package io.podnuma.agent.pods;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeviceRequestsTest {

    @Test
    void onlyWholeExtendedResourcesOfEveryContainerCountKubernetesOwnNamesDoNot() {
        Pod pod = new PodBuilder()
                .withNewSpec()
                .addNewInitContainer()
                .withName("proxy")
                .withNewResources()
                .addToLimits("example.com/nic", new Quantity("1"))
                .endResources()
                .endInitContainer()
                .addNewContainer()
                .withName("m")
                .withNewResources()
                .addToLimits(Map.of(
                        "cpu", new Quantity("4"),
                        "memory", new Quantity("1Gi"),
                        "hugepages-2Mi", new Quantity("4Mi"),
                        "nvidia.com/gpu", new Quantity("2"),
                        "example.kubernetes.io/thing", new Quantity("1"),
                        "example.com/half", new Quantity("500m")))
                .endResources()
                .endContainer()
                .addNewContainer()
                .withName("plain")
                .endContainer()
                .endSpec()
                .build();

        assertThat(DeviceRequests.of(pod).byContainer())
                .isEqualTo(Map.of("proxy", Map.of("example.com/nic", 1L), "m", Map.of("nvidia.com/gpu", 2L)));
        assertThat(DeviceRequests.of(new PodBuilder().build())).isEqualTo(DeviceRequests.NONE);
    }
}
