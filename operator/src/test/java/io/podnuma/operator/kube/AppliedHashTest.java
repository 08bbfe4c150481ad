package io.podnuma.operator.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.operator.render.AgentRender;
import io.podnuma.operator.render.AgentRollout;
import io.podnuma.operator.render.RenderedAgent;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AppliedHashTest {

    private static ConfigMap configMap(Map<String, String> data) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName("c")
                .withNamespace("ns")
                .endMetadata()
                .withData(data)
                .build();
    }

    @Test
    void theOrderOfMapEntriesDoesNotChangeTheHash() {
        Map<String, String> ab = new LinkedHashMap<>();
        ab.put("a", "1");
        ab.put("b", "2");
        Map<String, String> ba = new LinkedHashMap<>();
        ba.put("b", "2");
        ba.put("a", "1");
        assertThat(AppliedHash.of(configMap(ab))).isEqualTo(AppliedHash.of(configMap(ba)));
    }

    @Test
    void anyChangedValueChangesTheHash() {
        assertThat(AppliedHash.of(configMap(Map.of("a", "1"))))
                .isNotEqualTo(AppliedHash.of(configMap(Map.of("a", "2"))))
                .startsWith("sha256:");
    }

    @Test
    void aStampedObjectCarriesItsOwnerAndTheHashOfEverythingElse() {
        NumaResourcePolicy owner = new NumaResourcePolicy(
                "web", new NumaResourcePolicySpec(null, null, null, null, null, null, null, null));
        owner.getMetadata().setUid("u-1");
        RenderedAgent rendered = AgentRender.render("web", owner.getSpec(), AgentRollout.defaults("agent:1"));

        ConfigMap once = KubeAgentObjects.stamped(owner, rendered.configMap());
        ConfigMap twice = KubeAgentObjects.stamped(owner, once);

        assertThat(once.getMetadata().getOwnerReferences()).singleElement().satisfies(r -> {
            assertThat(r.getUid()).isEqualTo("u-1");
            assertThat(r.getKind()).isEqualTo("NumaResourcePolicy");
            assertThat(r.getController()).isTrue();
        });
        assertThat(AppliedHash.on(once)).isPresent().isEqualTo(AppliedHash.on(twice));
        assertThat(AppliedHash.on(rendered.configMap()))
                .as("the rendered object is not changed")
                .isEmpty();

        owner.getMetadata().setUid("u-2");
        assertThat(AppliedHash.on(KubeAgentObjects.stamped(owner, rendered.configMap())))
                .as("a new owner is a new object to apply")
                .isNotEqualTo(AppliedHash.on(once));
    }
}
