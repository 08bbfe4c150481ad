package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import org.junit.jupiter.api.Test;

class CrdInstallTest {

    @Test
    void onlyAnEstablishedTrueConditionCounts() {
        assertThat(CrdInstall.established(null)).isFalse();
        assertThat(CrdInstall.established(new CustomResourceDefinition())).isFalse();
        // the trap: the API server writes the status object before the controller writes any condition
        assertThat(CrdInstall.established(new CustomResourceDefinitionBuilder()
                        .withNewStatus()
                        .endStatus()
                        .build()))
                .isFalse();
        assertThat(CrdInstall.established(withCondition("NamesAccepted", "True")))
                .isFalse();
        assertThat(CrdInstall.established(withCondition("Established", "False")))
                .isFalse();
        assertThat(CrdInstall.established(withCondition("Established", "True"))).isTrue();
    }

    private static CustomResourceDefinition withCondition(String type, String status) {
        return new CustomResourceDefinitionBuilder()
                .withNewStatus()
                .addNewCondition()
                .withType(type)
                .withStatus(status)
                .endCondition()
                .endStatus()
                .build();
    }
}
