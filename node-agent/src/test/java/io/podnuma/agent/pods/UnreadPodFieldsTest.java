package io.podnuma.agent.pods;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.podnuma.agent.cgroup.watch.PodContainerIds;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class UnreadPodFieldsTest {

    private static final KubernetesSerialization WHOLE = new KubernetesSerialization();
    private static final KubernetesSerialization NARROW = UnreadPodFields.serialization();

    /** A pod as the API server sends it: defaults, a service-account volume, probes, managed fields, statuses. */
    private static String apiServerPod() {
        var container = new ContainerBuilder()
                .withName("app")
                .withImage("registry.example/app:1")
                .withCommand("/app")
                .withArgs("--port", "8080")
                .addNewEnv()
                .withName("MODE")
                .withValue("fast")
                .endEnv()
                .addNewPort()
                .withContainerPort(8080)
                .endPort()
                .addNewVolumeMount()
                .withName("kube-api-access")
                .withMountPath("/var/run/secrets/kubernetes.io/serviceaccount")
                .endVolumeMount()
                .withNewLivenessProbe()
                .withNewHttpGet()
                .withPath("/healthz")
                .endHttpGet()
                .endLivenessProbe()
                .withNewResources()
                .withRequests(Map.of("cpu", new Quantity("2"), "memory", new Quantity("1Gi")))
                .withLimits(Map.of("cpu", new Quantity("2"), "memory", new Quantity("1Gi")))
                .endResources()
                .build();
        var sidecar = new ContainerBuilder()
                .withName("proxy")
                .withImage("registry.example/proxy:1")
                .withRestartPolicy("Always")
                .addNewEnv()
                .withName("LEVEL")
                .withValue("info")
                .endEnv()
                .build();
        Pod pod = new PodBuilder()
                .withMetadata(new ObjectMetaBuilder()
                        .withName("web-0")
                        .withNamespace("shop")
                        .withUid("6a1b7c2d-0000-4000-8000-000000000001")
                        .withResourceVersion("4711")
                        .withLabels(Map.of("app", "web"))
                        .withAnnotations(
                                Map.of("podnuma.io/budget", "{\"requests\":{\"cpu\":\"4\",\"memory\":\"2Gi\"}}"))
                        .withManagedFields(new ManagedFieldsEntryBuilder()
                                .withManager("kubectl")
                                .withOperation("Apply")
                                .withFieldsType("FieldsV1")
                                .withFieldsV1(fields())
                                .build())
                        .build())
                .withNewSpec()
                .withNodeName("node-a")
                .withInitContainers(sidecar)
                .withContainers(container)
                .addNewVolume()
                .withName("kube-api-access")
                .withNewProjected()
                .addNewSource()
                .withNewServiceAccountToken()
                .withPath("token")
                .withExpirationSeconds(3607L)
                .endServiceAccountToken()
                .endSource()
                .endProjected()
                .endVolume()
                .addNewToleration()
                .withKey("node.kubernetes.io/not-ready")
                .withOperator("Exists")
                .withEffect("NoExecute")
                .withTolerationSeconds(300L)
                .endToleration()
                .endSpec()
                .withNewStatus()
                .withPhase("Running")
                .withQosClass("Guaranteed")
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .endCondition()
                .addNewPodIP("10.0.0.7")
                .withContainerStatuses(new ContainerStatusBuilder()
                        .withName("app")
                        .withContainerID("containerd://" + "a".repeat(64))
                        .withReady(true)
                        .addNewVolumeMount()
                        .withName("kube-api-access")
                        .withMountPath("/var/run/secrets/kubernetes.io/serviceaccount")
                        .endVolumeMount()
                        .build())
                .withInitContainerStatuses(new ContainerStatusBuilder()
                        .withName("proxy")
                        .withContainerID("containerd://" + "b".repeat(64))
                        .build())
                .endStatus()
                .build();
        return WHOLE.asJson(pod);
    }

    private static FieldsV1 fields() {
        FieldsV1 f = new FieldsV1();
        f.setAdditionalProperty(
                "f:spec",
                Map.of("f:containers", Map.of("k:{\"name\":\"app\"}", Map.of("f:image", Map.of(), "f:env", Map.of()))));
        return f;
    }

    @Test
    void aPodReadNarrowMapsToTheSameEnginePodAndContainerIdsAsOneReadWhole() {
        String json = apiServerPod();
        Pod whole = WHOLE.unmarshal(json, Pod.class);
        Pod narrow = NARROW.unmarshal(json, Pod.class);

        PodMapper mapper = new PodMapper("podnuma.io/budget");
        assertThat(mapper.map(narrow)).isEqualTo(mapper.map(whole));
        assertThat(PodContainerIds.of(narrow)).isEqualTo(PodContainerIds.of(whole));
        assertThat(narrow.getMetadata().getAnnotations())
                .isEqualTo(whole.getMetadata().getAnnotations());
        assertThat(narrow.getMetadata().getLabels())
                .isEqualTo(whole.getMetadata().getLabels());
        assertThat(narrow.getStatus().getPhase()).isEqualTo("Running");
        assertThat(narrow.getSpec().getNodeName()).isEqualTo("node-a");
    }

    @Test
    void theSkippedFieldsAreLeftOutNotKeptAsUnknownProperties() {
        Pod narrow = NARROW.unmarshal(apiServerPod(), Pod.class);

        assertThat(narrow.getMetadata().getManagedFields()).isEmpty();
        assertThat(narrow.getMetadata().getAdditionalProperties()).isEmpty();
        assertThat(narrow.getSpec().getVolumes()).isEmpty();
        assertThat(narrow.getSpec().getTolerations()).isEmpty();
        assertThat(narrow.getSpec().getAdditionalProperties()).isEmpty();
        var app = narrow.getSpec().getContainers().get(0);
        assertThat(app.getEnv()).isEmpty();
        assertThat(app.getPorts()).isEmpty();
        assertThat(app.getCommand()).isEmpty();
        assertThat(app.getLivenessProbe()).isNull();
        assertThat(app.getAdditionalProperties()).isEmpty();
        assertThat(narrow.getStatus().getConditions()).isEmpty();
        assertThat(narrow.getStatus().getContainerStatuses().get(0).getVolumeMounts())
                .isEmpty();
        // what the agent reads is there
        assertThat(app.getResources().getLimits()).containsKeys("cpu", "memory");
        assertThat(narrow.getSpec().getInitContainers().get(0).getRestartPolicy())
                .isEqualTo("Always");
    }

    @Test
    void everySkippedNameIsAFieldOfItsType() {
        // A misspelt name would skip nothing and cost the memory it was meant to save.
        ObjectMapper plain = new ObjectMapper();
        UnreadPodFields.SKIPPED.forEach((type, holder) -> {
            Set<String> properties =
                    plain.getDeserializationConfig().introspect(plain.constructType(type)).findProperties().stream()
                            .map(BeanPropertyDefinition::getName)
                            .collect(Collectors.toSet());
            List<String> skipped =
                    List.of(holder.getAnnotation(JsonIgnoreProperties.class).value());
            assertThat(skipped).as("%s", type.getSimpleName()).isNotEmpty();
            assertThat(properties).as("%s", type.getSimpleName()).containsAll(skipped);
        });
    }

    @Test
    void aNodeIsReadForItsMetadataOnly() {
        var node = new io.fabric8.kubernetes.api.model.NodeBuilder()
                .withNewMetadata()
                .withName("node-a")
                .withUid("u-1")
                .withLabels(Map.of("podnuma.io/policy", "p"))
                .endMetadata()
                .withNewStatus()
                .addNewImage()
                .withNames("registry.example/app:1")
                .withSizeBytes(1L << 30)
                .endImage()
                .endStatus()
                .build();
        var read = NARROW.unmarshal(WHOLE.asJson(node), io.fabric8.kubernetes.api.model.Node.class);
        assertThat(read.getMetadata().getLabels()).containsEntry("podnuma.io/policy", "p");
        assertThat(read.getMetadata().getUid()).isEqualTo("u-1");
        assertThat(read.getStatus()).isNull();
        assertThat(read.getAdditionalProperties()).isEmpty();
    }

    @Test
    void whatTheAgentWritesIsSerialisedWhole() {
        ObjectMeta meta = new ObjectMetaBuilder()
                .withName("n")
                .withManagedFields(new ManagedFieldsEntryBuilder()
                        .withManager("podnuma-agent")
                        .withFieldsV1(fields())
                        .build())
                .build();
        assertThat(NARROW.asJson(meta)).isEqualTo(WHOLE.asJson(meta)).contains("managedFields");
    }
}
