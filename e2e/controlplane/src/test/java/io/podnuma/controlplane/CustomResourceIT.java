package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A CRD installs on the real API server, and its objects go through every verb including server-side apply. */
@ExtendWith(ControlPlaneExtension.class)
class CustomResourceIT {

    private static final String NAMESPACE = "crd-it";
    private static final String CRD_NAME = "gadgets.it.podnuma.io";
    private static final ResourceDefinitionContext GADGETS = new ResourceDefinitionContext.Builder()
            .withGroup("it.podnuma.io")
            .withVersion("v1")
            .withPlural("gadgets")
            .withKind("Gadget")
            .withNamespaced(true)
            .build();

    @BeforeAll
    static void installCrd(ControlPlane plane) throws Exception {
        assertThat(plane.installCrds(Path.of(
                        CustomResourceIT.class.getResource("gadget-crd.yaml").toURI())))
                .containsExactly(CRD_NAME);
        plane.ensureNamespace(NAMESPACE);
    }

    @AfterAll
    static void removeCrd(ControlPlane plane) {
        plane.client()
                .apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName(CRD_NAME)
                .delete();
    }

    private static GenericKubernetesResource gadget(String name, int size) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion("it.podnuma.io/v1")
                .withKind("Gadget")
                .withNewMetadata()
                .withName(name)
                .withNamespace(NAMESPACE)
                .endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("size", size, "colour", "blue")))
                .build();
    }

    @Test
    void customObjectsRoundTripThroughCreateGetUpdateListDelete(ControlPlane plane) {
        KubernetesClient client = plane.client();
        var gadgets = client.genericKubernetesResources(GADGETS).inNamespace(NAMESPACE);

        GenericKubernetesResource created =
                gadgets.resource(gadget("round-trip", 2)).create();
        assertThat(created.getMetadata().getUid()).isNotBlank();
        assertThat(created.<Integer>get("spec", "size")).isEqualTo(2);

        GenericKubernetesResource fetched = gadgets.withName("round-trip").get();
        assertThat(fetched.<String>get("spec", "colour")).isEqualTo("blue");

        GenericKubernetesResource updated = gadgets.withName("round-trip").edit(g -> {
            g.<Map<String, Object>>get("spec").put("size", 5);
            return g;
        });
        assertThat(updated.<Integer>get("spec", "size")).isEqualTo(5);
        assertThat(updated.getMetadata().getGeneration()).isEqualTo(2L);

        assertThat(gadgets.list().getItems())
                .extracting(g -> g.getMetadata().getName())
                .contains("round-trip");

        gadgets.withName("round-trip").delete();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> gadgets.withName("round-trip").get() == null);
    }

    @Test
    void serverSideApplyCreatesThenMergesAndRecordsTheFieldManager(ControlPlane plane) {
        var gadgets = plane.client().genericKubernetesResources(GADGETS).inNamespace(NAMESPACE);

        GenericKubernetesResource applied = gadgets.resource(gadget("applied", 1))
                .fieldManager("podnuma-it")
                .forceConflicts()
                .serverSideApply();
        assertThat(applied.getMetadata().getManagedFields())
                .extracting(ManagedFieldsEntry::getManager, ManagedFieldsEntry::getOperation)
                .contains(org.assertj.core.groups.Tuple.tuple("podnuma-it", "Apply"));

        GenericKubernetesResource reapplied = gadgets.resource(gadget("applied", 3))
                .fieldManager("podnuma-it")
                .forceConflicts()
                .serverSideApply();
        assertThat(reapplied.<Integer>get("spec", "size")).isEqualTo(3);
        assertThat(reapplied.getMetadata().getUid())
                .isEqualTo(applied.getMetadata().getUid());

        // kubectl's own server-side apply of the same object takes the field over from our manager.
        String yaml = """
                apiVersion: it.podnuma.io/v1
                kind: Gadget
                metadata:
                  name: applied
                  namespace: %s
                spec:
                  size: 4
                  colour: blue
                """.formatted(NAMESPACE);
        plane.kubectlWithStdin(yaml, "apply", "--server-side", "--force-conflicts", "-f", "-")
                .assertSuccess();
        assertThat(gadgets.withName("applied").get().<Integer>get("spec", "size"))
                .isEqualTo(4);
    }

    @Test
    void theSchemaIsEnforcedWithTheFieldNamed(ControlPlane plane) {
        var gadgets = plane.client().genericKubernetesResources(GADGETS).inNamespace(NAMESPACE);
        assertThatThrownBy(() -> gadgets.resource(gadget("too-small", 0)).create())
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("spec.size")
                .hasMessageContaining("should be greater than or equal to 1");

        CommandResult kubectl = plane.kubectlWithStdin("""
                apiVersion: it.podnuma.io/v1
                kind: Gadget
                metadata: {name: wrong-colour, namespace: %s}
                spec: {size: 1, colour: purple}
                """.formatted(NAMESPACE), "apply", "-f", "-");
        assertThat(kubectl.assertFailure().stderr()).contains("spec.colour").contains("Unsupported value: \"purple\"");
    }
}
