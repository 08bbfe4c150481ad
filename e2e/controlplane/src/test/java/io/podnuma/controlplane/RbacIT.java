package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** RBAC is really enforced: a service account can do exactly what its role grants. */
@ExtendWith(ControlPlaneExtension.class)
class RbacIT {

    private static final String NAMESPACE = "rbac-it";

    @BeforeAll
    static void namespace(ControlPlane plane) {
        plane.ensureNamespace(NAMESPACE);
    }

    @Test
    void serviceAccountWithoutARoleIsForbidden(ControlPlane plane) {
        try (KubernetesClient nobody = plane.clientFor(NAMESPACE, "nobody")) {
            assertThatThrownBy(() -> nobody.configMaps().inNamespace(NAMESPACE).list())
                    .isInstanceOfSatisfying(
                            KubernetesClientException.class,
                            e -> assertThat(e.getCode()).isEqualTo(403))
                    .hasMessageContaining("system:serviceaccount:" + NAMESPACE + ":nobody")
                    .hasMessageContaining("cannot list resource \"configmaps\"");
        }
        CommandResult kubectl = plane.kubectl(
                "--kubeconfig",
                plane.kubeconfigFor(NAMESPACE, "nobody").toString(),
                "get",
                "configmaps",
                "-n",
                NAMESPACE);
        assertThat(kubectl.assertFailure().stderr()).contains("Forbidden");
    }

    @Test
    void serviceAccountWithARoleMayDoWhatItGrantsAndNothingElse(ControlPlane plane) {
        KubernetesClient admin = plane.client();
        admin.resource(new RoleBuilder()
                        .withNewMetadata()
                        .withName("configmap-editor")
                        .withNamespace(NAMESPACE)
                        .endMetadata()
                        .addNewRule()
                        .withApiGroups("")
                        .withResources("configmaps")
                        .withVerbs("get", "list", "create")
                        .endRule()
                        .build())
                .serverSideApply();
        admin.resource(new RoleBindingBuilder()
                        .withNewMetadata()
                        .withName("editor-binding")
                        .withNamespace(NAMESPACE)
                        .endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "Role", "configmap-editor")
                        .addNewSubject()
                        .withKind("ServiceAccount")
                        .withName("editor")
                        .withNamespace(NAMESPACE)
                        .endSubject()
                        .build())
                .serverSideApply();

        try (KubernetesClient editor = plane.clientFor(NAMESPACE, "editor")) {
            // The authorizer learns new bindings through a watch, so allow it a moment.
            await().atMost(Duration.ofSeconds(30))
                    .ignoreException(KubernetesClientException.class)
                    .until(() -> editor.configMaps().inNamespace(NAMESPACE).list() != null);
            editor.resource(new ConfigMapBuilder()
                            .withNewMetadata()
                            .withName("written-by-editor")
                            .withNamespace(NAMESPACE)
                            .endMetadata()
                            .build())
                    .create();
            assertThat(admin.configMaps()
                            .inNamespace(NAMESPACE)
                            .withName("written-by-editor")
                            .get())
                    .isNotNull();

            // Not granted: deleting, and anything in another namespace.
            assertThatThrownBy(() -> editor.configMaps()
                            .inNamespace(NAMESPACE)
                            .withName("written-by-editor")
                            .delete())
                    .isInstanceOfSatisfying(
                            KubernetesClientException.class,
                            e -> assertThat(e.getCode()).isEqualTo(403));
            assertThatThrownBy(() -> editor.configMaps().inNamespace("default").list())
                    .isInstanceOfSatisfying(
                            KubernetesClientException.class,
                            e -> assertThat(e.getCode()).isEqualTo(403));
        }

        String kubeconfig = plane.kubeconfigFor(NAMESPACE, "editor").toString();
        assertThat(plane.kubectl("--kubeconfig", kubeconfig, "auth", "can-i", "create", "configmaps", "-n", NAMESPACE)
                        .assertSuccess()
                        .stdout())
                .isEqualTo("yes\n");
        assertThat(plane.kubectl("--kubeconfig", kubeconfig, "auth", "can-i", "delete", "configmaps", "-n", NAMESPACE)
                        .stdout())
                .isEqualTo("no\n");
    }
}
