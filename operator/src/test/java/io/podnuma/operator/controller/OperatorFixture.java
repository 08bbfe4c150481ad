package io.podnuma.operator.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.api.model.rbac.SubjectBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.operator.reconcile.ReconcileSettings;
import io.podnuma.operator.render.AgentRollout;
import io.podnuma.operator.status.StatusSettings;
import io.podnuma.testkit.GeneratedCrds;
import java.io.InputStream;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The operator in the test JVM, under its own ServiceAccount bound to the RBAC the chart ships
 * ({@code io/podnuma/operator/rbac/clusterrole.yaml}), against the local control plane.
 */
final class OperatorFixture implements AutoCloseable {

    static final String NAMESPACE = "podnuma-system";
    static final String SERVICE_ACCOUNT = "podnuma-operator";
    static final Duration RESTORE_TIMEOUT = Duration.ofSeconds(10);

    final ControlPlane plane;
    final KubernetesClient client;
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private PodnumaOperator operator;

    private OperatorFixture(ControlPlane plane) {
        this.plane = plane;
        this.client = plane.clientFor(NAMESPACE, SERVICE_ACCOUNT);
    }

    /** CRDs, namespace, RBAC; the operator is not started yet. */
    static OperatorFixture prepare(ControlPlane plane) {
        plane.installCrds(GeneratedCrds.numaResourcePolicies(), GeneratedCrds.numaNodeStates());
        plane.ensureNamespace(NAMESPACE);
        for (HasMetadata o : rbac(plane.client())) {
            // The Roles of the release namespace name none; the Events' Role names its own (default).
            if ("Role".equals(o.getKind()) && o.getMetadata().getNamespace() == null) {
                o.getMetadata().setNamespace(NAMESPACE);
            }
            plane.client().resource(o).serverSideApply();
        }
        plane.client()
                .resource(new ClusterRoleBindingBuilder()
                        .withNewMetadata()
                        .withName("podnuma-operator")
                        .endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "podnuma-operator")
                        .withSubjects(operatorAccount())
                        .build())
                .serverSideApply();
        bindRole(plane, "podnuma-operator", NAMESPACE);
        bindRole(plane, "podnuma-operator-events", "default");
        return new OperatorFixture(plane);
    }

    /** The operator's ServiceAccount as an RBAC subject. */
    private static Subject operatorAccount() {
        return new SubjectBuilder()
                .withKind("ServiceAccount")
                .withName(SERVICE_ACCOUNT)
                .withNamespace(NAMESPACE)
                .build();
    }

    /** A RoleBinding {@code role} in {@code namespace} of the Role of the same name to the operator's account. */
    private static void bindRole(ControlPlane plane, String role, String namespace) {
        plane.client()
                .resource(new RoleBindingBuilder()
                        .withNewMetadata()
                        .withName(role)
                        .withNamespace(namespace)
                        .endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "Role", role)
                        .withSubjects(operatorAccount())
                        .build())
                .serverSideApply();
    }

    static List<HasMetadata> rbac(KubernetesClient admin) {
        try (InputStream in = PodnumaOperator.class.getResourceAsStream("/io/podnuma/operator/rbac/clusterrole.yaml")) {
            return admin.load(in).items();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static ReconcileSettings settings(boolean serviceMonitors, UnaryOperator<AgentRollout.Builder> rollout) {
        return new ReconcileSettings(
                rollout.apply(AgentRollout.defaults("podnuma/node-agent:it").toBuilder()
                                .namespace(NAMESPACE))
                        .build(),
                RESTORE_TIMEOUT,
                serviceMonitors,
                StatusSettings.DEFAULTS);
    }

    void start() {
        start(false);
    }

    void start(boolean serviceMonitors) {
        start(serviceMonitors, UnaryOperator.identity());
    }

    /** With rollout settings of the test's own. */
    void start(boolean serviceMonitors, UnaryOperator<AgentRollout.Builder> rollout) {
        operator = PodnumaOperator.start(
                client,
                settings(serviceMonitors, rollout),
                Optional.empty(),
                registry,
                InstantSource.system(),
                "operator-it");
    }

    /** The reconciles of {@code policy} the running operator has ended (since its last start). */
    ReconcilePasses.Count passes(String policy) {
        return operator.passes(policy);
    }

    void restart() {
        operator.close();
        start();
    }

    void restart(boolean serviceMonitors, UnaryOperator<AgentRollout.Builder> rollout) {
        operator.close();
        start(serviceMonitors, rollout);
    }

    @Override
    public void close() {
        if (operator != null) {
            operator.close();
        }
        client.close();
    }
}
