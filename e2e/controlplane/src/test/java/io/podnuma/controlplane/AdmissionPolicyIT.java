package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * CEL admission works with impersonated service accounts: the pattern podnuma uses so that each node agent
 * may write only its own node's object.
 */
@ExtendWith(ControlPlaneExtension.class)
class AdmissionPolicyIT {

    private static final String NAMESPACE = "vap-it";

    private static final String MANIFESTS = """
            apiVersion: v1
            kind: Namespace
            metadata:
              name: vap-it
              labels: {vap-it: "true"}
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: Role
            metadata: {name: configmap-writer, namespace: vap-it}
            rules:
            - apiGroups: [""]
              resources: [configmaps]
              verbs: [create, get]
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: RoleBinding
            metadata: {name: agents-write-configmaps, namespace: vap-it}
            roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: configmap-writer}
            subjects:
            - {kind: Group, apiGroup: rbac.authorization.k8s.io, name: "system:serviceaccounts:vap-it"}
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: own-configmap-only.it.podnuma.io}
            spec:
              failurePolicy: Fail
              matchConstraints:
                resourceRules:
                - apiGroups: [""]
                  apiVersions: [v1]
                  operations: [CREATE, UPDATE]
                  resources: [configmaps]
              matchConditions:
              - name: service-accounts-only
                expression: request.userInfo.username.startsWith("system:serviceaccount:")
              validations:
              - expression: object.metadata.name == request.userInfo.username.split(":")[3]
                messageExpression: >-
                  "service account " + request.userInfo.username.split(":")[3]
                  + " may only write the ConfigMap named after itself, not " + object.metadata.name
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicyBinding
            metadata: {name: own-configmap-only.it.podnuma.io}
            spec:
              policyName: own-configmap-only.it.podnuma.io
              validationActions: [Deny]
              matchResources:
                namespaceSelector:
                  matchLabels: {vap-it: "true"}
            """;

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NAMESPACE)
                .endMetadata()
                .addToData("written", "yes")
                .build();
    }

    @Test
    void aServiceAccountMayWriteOnlyItsOwnObject(ControlPlane plane) {
        plane.kubectlWithStdin(MANIFESTS, "apply", "--server-side", "-f", "-").assertSuccess();

        try (KubernetesClient agentA = plane.clientFor(NAMESPACE, "agent-a")) {
            // Policies and bindings reach the admission chain through informers: wait until it denies.
            AtomicInteger probe = new AtomicInteger();
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> {
                        String name = "probe-" + probe.incrementAndGet();
                        assertThatThrownBy(
                                        () -> agentA.resource(configMap(name)).create())
                                .isInstanceOf(KubernetesClientException.class)
                                .hasMessageContaining("may only write the ConfigMap named after itself, not " + name);
                    });

            agentA.resource(configMap("agent-a")).create();
            assertThat(plane.client()
                            .configMaps()
                            .inNamespace(NAMESPACE)
                            .withName("agent-a")
                            .get())
                    .isNotNull();

            assertThatThrownBy(() -> agentA.resource(configMap("agent-b")).create())
                    .isInstanceOf(KubernetesClientException.class)
                    .hasMessageContaining("ValidatingAdmissionPolicy 'own-configmap-only.it.podnuma.io'")
                    .hasMessageContaining("service account agent-a may only write the ConfigMap named after itself");
        }
        // The admin is not a service account, so the policy does not apply to it.
        plane.client().resource(configMap("agent-b")).create();
    }
}
