package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The namespace controller (in the real kube-controller-manager) empties and removes a deleted namespace. */
@ExtendWith(ControlPlaneExtension.class)
class NamespaceDeletionIT {

    @Test
    void deletingANamespaceWithObjectsInItCompletes(ControlPlane plane) {
        plane.startControllers();
        KubernetesClient client = plane.client();
        String ns = "doomed-it";
        client.resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(ns)
                        .endMetadata()
                        .build())
                .create();
        client.resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("settings")
                        .withNamespace(ns)
                        .endMetadata()
                        .addToData("k", "v")
                        .build())
                .create();
        client.resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName("secret")
                        .withNamespace(ns)
                        .endMetadata()
                        .addToStringData("k", "v")
                        .build())
                .create();
        client.resource(new ServiceAccountBuilder()
                        .withNewMetadata()
                        .withName("robot")
                        .withNamespace(ns)
                        .endMetadata()
                        .build())
                .create();

        client.namespaces().withName(ns).delete();

        // Terminating first (the API server only marks it), then gone once the controller emptied it.
        assertThat(client.namespaces().withName(ns).get())
                .satisfiesAnyOf(
                        n -> assertThat(n).isNull(),
                        n -> assertThat(n.getStatus().getPhase()).isEqualTo("Terminating"));
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> client.namespaces().withName(ns).get() == null);
        assertThat(client.configMaps().inNamespace(ns).list().getItems()).isEmpty();
        assertThat(client.secrets().inNamespace(ns).list().getItems()).isEmpty();
    }
}
