package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The stage file's structure; kwok rendering it against real objects is covered by {@code KwokNodesIT}. */
class KwokStagesTest {

    private static List<GenericKubernetesResource> stages() throws IOException {
        try (InputStream in = LocalControlPlane.class.getResourceAsStream("kwok-stages.yaml")) {
            assertThat(in).as("kwok-stages.yaml on the classpath").isNotNull();
            String yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            KubernetesSerialization serialization = new KubernetesSerialization();
            return Arrays.stream(yaml.split("(?m)^---$"))
                    .map(doc -> serialization.unmarshal(doc, GenericKubernetesResource.class))
                    .toList();
        }
    }

    @Test
    void definesNodeAndPodLifecycleStages() throws IOException {
        List<GenericKubernetesResource> stages = stages();
        assertThat(stages).allSatisfy(stage -> {
            assertThat(stage.getApiVersion()).isEqualTo("kwok.x-k8s.io/v1alpha1");
            assertThat(stage.getKind()).isEqualTo("Stage");
        });
        assertThat(stages)
                .extracting(stage -> stage.getMetadata().getName() + "/" + kind(stage))
                .containsExactly(
                        "podnuma-node-ready/Node",
                        "podnuma-node-heartbeat/Node",
                        "podnuma-pod-running/Pod",
                        "podnuma-pod-complete/Pod",
                        "podnuma-pod-delete/Pod");
    }

    @Test
    void runningAndCompletedPodsCarryContainerIdsDerivedFromUidAndName() throws IOException {
        for (GenericKubernetesResource stage : stages()) {
            String template = String.valueOf(stage.<Object>get("spec", "next", "statusTemplate"));
            if (template.contains("containerStatuses:")) {
                assertThat(template)
                        .as(stage.getMetadata().getName())
                        .contains(
                                "containerID: {{ printf \"containerd://%s\" (printf \"%s/%s\" $uid .name | sha256sum) | Quote }}");
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static String kind(GenericKubernetesResource stage) {
        Map<String, Object> ref = (Map<String, Object>) stage.<Object>get("spec", "resourceRef");
        return String.valueOf(ref.get("kind"));
    }
}
