package io.podnuma.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.testkit.GeneratedCrds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code helm install --wait} and {@code helm uninstall} on the local control plane. The operator's two pods run on
 * kwok nodes, which report them Running and Ready without running the image, so the install proves the objects are
 * accepted and the Deployment becomes available, not that the operator works (the E2E does). After the uninstall
 * only the CRDs are left: podnuma's (from crds/) and the NodeResourceTopology one (kept by its resource policy).
 */
@ExtendWith(ControlPlaneExtension.class)
class ChartInstallIT {

    static final String NRT_CRD = "noderesourcetopologies.topology.node.k8s.io";
    static final List<String> PODNUMA_CRDS = List.of("numaresourcepolicies.podnuma.io", "numanodestates.podnuma.io");

    @Test
    void installsWaitsAndUninstallsLeavingOnlyTheCrds(ControlPlane plane) throws Exception {
        KubernetesClient client = plane.client();
        plane.ensureNodes(2);
        deleteNrtCrd(client);
        String release = "inst";
        String namespace = "podnuma-install-it";

        ChartFiles.install(
                plane,
                release,
                namespace,
                "nodeResourceTopology.enabled=true,nodeResourceTopology.installCrd=true",
                "180s");

        Deployment operator = client.apps()
                .deployments()
                .inNamespace(namespace)
                .withName("inst-podnuma-operator")
                .get();
        assertThat(operator.getStatus().getAvailableReplicas()).isEqualTo(2);
        assertThat(client.policy()
                        .v1()
                        .podDisruptionBudget()
                        .inNamespace(namespace)
                        .withName("inst-podnuma-operator")
                        .get())
                .isNotNull();
        for (String crd : PODNUMA_CRDS) {
            assertThat(crd(client, crd)).as(crd).isNotNull();
        }
        CustomResourceDefinition nrt = crd(client, NRT_CRD);
        assertThat(nrt.getMetadata().getAnnotations())
                .containsEntry("helm.sh/resource-policy", "keep")
                .containsEntry("meta.helm.sh/release-name", release);
        assertThat(releaseObjects(client, release))
                .extracting(o -> o.getKind() + "/" + o.getMetadata().getName())
                .contains(
                        "ValidatingAdmissionPolicy/inst-podnuma-agent.podnuma.io",
                        "ValidatingAdmissionPolicyBinding/inst-podnuma-agent.podnuma.io",
                        "ClusterRole/inst-podnuma-agent",
                        "ClusterRole/inst-podnuma-operator",
                        "Role/inst-podnuma-operator",
                        "ConfigMap/inst-podnuma-operator");
        String status = plane.helm("status", release, "--namespace", namespace)
                .assertSuccess()
                .stdout();
        assertThat(status)
                .contains("kubectl describe nrp quickstart")
                .contains("inst-podnuma-operator-metrics port 9090");
        // The policy NOTES.txt shows is the quickstart sample, field for field.
        String inline = status.substring(
                status.indexOf("<<'POLICY'") + "<<'POLICY'".length(),
                status.indexOf("\n     POLICY\n", status.indexOf("<<'POLICY'")));
        var yaml = new com.fasterxml.jackson.databind.ObjectMapper(
                new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
        assertThat(yaml.readTree(inline.stripIndent()))
                .isEqualTo(yaml.readTree(java.nio.file.Files.readString(ChartFiles.chart()
                        .resolve("../../crds/examples/quickstart.yaml")
                        .normalize())));

        // An upgrade keeps the CRD it installed (the lookup finds it, and it is this release's).
        plane.helm(
                        "upgrade",
                        release,
                        ChartFiles.chart().toString(),
                        "--namespace",
                        namespace,
                        "--reuse-values",
                        "--set",
                        "agent.reconcilePeriod=20s",
                        "--wait",
                        "--timeout",
                        "180s")
                .assertSuccess();
        assertThat(plane.helm("get", "manifest", release, "--namespace", namespace)
                        .assertSuccess()
                        .stdout())
                .contains("name: " + NRT_CRD);

        plane.helm("uninstall", release, "--namespace", namespace, "--wait", "--timeout", "120s")
                .assertSuccess();
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(releaseObjects(client, release))
                        .extracting(o -> o.getKind() + "/" + o.getMetadata().getName())
                        .isEmpty());
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(client.pods()
                                .inNamespace(namespace)
                                .withLabel("app.kubernetes.io/instance", release)
                                .list()
                                .getItems())
                        .isEmpty());
        for (String crd :
                Stream.concat(PODNUMA_CRDS.stream(), Stream.of(NRT_CRD)).toList()) {
            assertThat(crd(client, crd))
                    .as(crd + " is left after the uninstall")
                    .isNotNull();
        }
    }

    @Test
    void anNrtCrdThatIsNotOursIsLeftAlone(ControlPlane plane) {
        KubernetesClient client = plane.client();
        deleteNrtCrd(client);
        plane.installCrds(GeneratedCrds.nodeResourceTopologies());
        String release = "other";
        String namespace = "podnuma-install-nrt-it";

        plane.helm(
                        "install",
                        release,
                        ChartFiles.chart().toString(),
                        "--namespace",
                        namespace,
                        "--create-namespace",
                        "--set",
                        "operator.replicas=0,nodeResourceTopology.installCrd=true")
                .assertSuccess();
        assertThat(plane.helm("get", "manifest", release, "--namespace", namespace)
                        .assertSuccess()
                        .stdout())
                .doesNotContain(NRT_CRD);
        assertThat(crd(client, NRT_CRD).getMetadata().getAnnotations()).doesNotContainKey("meta.helm.sh/release-name");

        plane.helm("uninstall", release, "--namespace", namespace, "--wait").assertSuccess();
        assertThat(crd(client, NRT_CRD)).isNotNull();
    }

    /** Everything of the release the chart makes, by its instance label, cluster-wide. */
    private static List<HasMetadata> releaseObjects(KubernetesClient client, String release) {
        String label = "app.kubernetes.io/instance";
        List<HasMetadata> found = new ArrayList<>();
        found.addAll(client.apps()
                .deployments()
                .inAnyNamespace()
                .withLabel(label, release)
                .list()
                .getItems());
        found.addAll(client.configMaps()
                .inAnyNamespace()
                .withLabel(label, release)
                .list()
                .getItems());
        found.addAll(client.services()
                .inAnyNamespace()
                .withLabel(label, release)
                .list()
                .getItems());
        found.addAll(client.serviceAccounts()
                .inAnyNamespace()
                .withLabel(label, release)
                .list()
                .getItems());
        found.addAll(client.policy()
                .v1()
                .podDisruptionBudget()
                .inAnyNamespace()
                .withLabel(label, release)
                .list()
                .getItems());
        found.addAll(client.rbac()
                .roles()
                .inAnyNamespace()
                .withLabel(label, release)
                .list()
                .getItems());
        found.addAll(client.rbac()
                .roleBindings()
                .inAnyNamespace()
                .withLabel(label, release)
                .list()
                .getItems());
        found.addAll(
                client.rbac().clusterRoles().withLabel(label, release).list().getItems());
        found.addAll(client.rbac()
                .clusterRoleBindings()
                .withLabel(label, release)
                .list()
                .getItems());
        found.addAll(client.admissionRegistration()
                .v1()
                .validatingAdmissionPolicies()
                .withLabel(label, release)
                .list()
                .getItems());
        found.addAll(client.admissionRegistration()
                .v1()
                .validatingAdmissionPolicyBindings()
                .withLabel(label, release)
                .list()
                .getItems());
        return found;
    }

    private static CustomResourceDefinition crd(KubernetesClient client, String name) {
        return client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName(name)
                .get();
    }

    private static void deleteNrtCrd(KubernetesClient client) {
        client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName(NRT_CRD)
                .delete();
        await().atMost(Duration.ofSeconds(60)).until(() -> crd(client, NRT_CRD) == null);
    }
}
