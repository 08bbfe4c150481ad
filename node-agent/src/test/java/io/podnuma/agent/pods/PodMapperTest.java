package io.podnuma.agent.pods;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.podnuma.agent.engine.memory.MemoryQuantity;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.pod.ContainerType;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.agent.engine.pod.PodRules;
import org.junit.jupiter.api.Test;

class PodMapperTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static io.fabric8.kubernetes.api.model.Pod read(String yaml) throws Exception {
        return YAML.readValue(yaml, io.fabric8.kubernetes.api.model.Pod.class);
    }

    private static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata: {name: web, namespace: shop, uid: 1234-abcd}
            spec:
              resources:
                limits: {cpu: "8", memory: 16Gi, hugepages-2Mi: 1Gi}
              initContainers:
                - {name: setup, image: x}
                - name: proxy
                  image: x
                  restartPolicy: Always
                  resources: {limits: {cpu: "1", memory: 1Gi}}
              containers:
                - name: app
                  image: x
                  resources:
                    requests: {cpu: 6000m, memory: 8Gi, ephemeral-storage: 1Gi}
                    limits: {cpu: "6", memory: 8Gi, nvidia.com/gpu: "1"}
              ephemeralContainers:
                - {name: debug, image: x}
            """;

    @Test
    void mapsContainersTypesAndThePodBudget() throws Exception {
        Pod p = new PodMapper(null).map(read(POD));
        assertThat(p.ref().uid()).isEqualTo("1234-abcd");
        assertThat(p.ref().namespace()).isEqualTo("shop");
        assertThat(p.initContainers())
                .extracting(c -> c.type())
                .containsExactly(ContainerType.INIT, ContainerType.SIDECAR);
        assertThat(p.appContainers().get(0).resources().requests().cpuMillis()).isEqualTo(6000);
        assertThat(p.ephemeralContainers().get(0).type()).isEqualTo(ContainerType.EPHEMERAL);
        assertThat(PodRules.qos(p)).isEqualTo(PodQos.GUARANTEED);
        assertThat(PodRules.cpuBudget(p)).isEqualTo(8);
        assertThat(PodRules.memoryBudget(p))
                .containsEntry(MemoryResource.parse("hugepages-2Mi"), MemoryQuantity.parseBytes("1Gi"))
                .containsEntry(MemoryResource.MEMORY, MemoryQuantity.parseBytes("16Gi"));
        assertThat(PodRules.exclusiveCpus(p, p.appContainers().get(0))).isEqualTo(6);
    }

    @Test
    void withoutAUidTheNamespaceAndNameStandIn() throws Exception {
        Pod p = new PodMapper(null).map(read("kind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c}]}"));
        assertThat(p.ref().uid()).isEqualTo("default.a");
        assertThat(p.hasPodLevelResources()).isFalse();
    }

    @Test
    void theBudgetAnnotationIsReadOnlyWhenTheFieldIsAbsent() throws Exception {
        String annotated = """
                kind: Pod
                metadata:
                  name: a
                  annotations:
                    podnuma.io/pod-resources: '{"limits":{"cpu":"4","memory":"4Gi"}}'
                spec:
                  containers: [{name: c}]
                """;
        assertThat(PodRules.cpuBudget(new PodMapper("podnuma.io/pod-resources").map(read(annotated))))
                .isEqualTo(4);
        assertThat(new PodMapper(null).map(read(annotated)).hasPodLevelResources())
                .isFalse();
        String both = annotated.replace("spec:\n", "spec:\n  resources: {limits: {cpu: \"2\", memory: 2Gi}}\n");
        assertThat(PodRules.cpuBudget(new PodMapper("podnuma.io/pod-resources").map(read(both))))
                .as("the field wins")
                .isEqualTo(2);
    }

    @Test
    void badQuantitiesNameTheField() throws Exception {
        String bad =
                "kind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c, resources: {limits: {cpu: lots}}}]}";
        assertThatThrownBy(() -> new PodMapper(null).map(read(bad)))
                .isInstanceOf(PodMappingException.class)
                .hasMessageStartingWith("spec.containers[c].resources.limits.cpu \"lots\" is not a valid CPU quantity");
        String over = "kind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c, resources: {requests: {cpu: 2},"
                + " limits: {cpu: 1}}}]}";
        assertThatThrownBy(() -> new PodMapper(null).map(read(over)))
                .hasMessage("spec.containers[c].resources.requests.cpu 2 must be less than or equal to"
                        + " spec.containers[c].resources.limits.cpu 1");
    }
}
