package io.podnuma.testkit.metrics;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Two ServiceAccounts in a namespace of their own on a real API server: {@code reader}, bound to a ClusterRole with
 * what the chart's {@code <release>-metrics-reader} grants ({@code nonResourceURLs: ["/metrics"], verbs: [get]}), and
 * {@code stranger}, bound to nothing; a token of each. {@link #allowReviews} gives a process's identity what the
 * chart's {@code metrics.secure} rules give it. {@link #close} removes everything it made.
 */
public final class MetricsScrapers implements AutoCloseable {

    private final KubernetesClient admin;
    private final String name;
    private final List<String> reviewBindings = new ArrayList<>();
    private final String readerToken;
    private final String strangerToken;

    private MetricsScrapers(KubernetesClient admin, String name) {
        this.admin = admin;
        this.name = name;
        removeLeftovers();
        admin.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build())
                .create();
        for (String sa : List.of("reader", "stranger")) {
            admin.serviceAccounts()
                    .inNamespace(name)
                    .resource(new ServiceAccountBuilder()
                            .withNewMetadata()
                            .withName(sa)
                            .endMetadata()
                            .build())
                    .create();
        }
        admin.rbac()
                .clusterRoles()
                .resource(new ClusterRoleBuilder()
                        .withNewMetadata()
                        .withName(readerRole())
                        .endMetadata()
                        .addNewRule()
                        .withNonResourceURLs("/metrics")
                        .withVerbs("get")
                        .endRule()
                        .build())
                .create();
        bind(readerRole(), readerRole(), name, "reader");
        readerToken = token("reader");
        strangerToken = token("stranger");
    }

    /**
     * @param name a DNS label unique in the cluster: the namespace, and the prefix of the cluster-scoped RBAC objects
     */
    public static MetricsScrapers create(KubernetesClient admin, String name) {
        return new MetricsScrapers(Objects.requireNonNull(admin, "admin"), Objects.requireNonNull(name, "name"));
    }

    /** A token of the ServiceAccount that may get {@code /metrics}. */
    public String readerToken() {
        return readerToken;
    }

    /** A valid token of a ServiceAccount without that permission. */
    public String strangerToken() {
        return strangerToken;
    }

    public String namespace() {
        return name;
    }

    /** The user name a token of {@code stranger} authenticates as. */
    public String strangerUser() {
        return "system:serviceaccount:" + name + ":stranger";
    }

    /**
     * Lets {@code namespace/serviceAccount} create TokenReviews and SubjectAccessReviews: the two rules the chart's
     * ClusterRoles get with {@code metrics.secure.enabled}.
     */
    public void allowReviews(String namespace, String serviceAccount) {
        String role = name + "-reviews";
        if (reviewBindings.isEmpty()) {
            admin.rbac()
                    .clusterRoles()
                    .resource(new ClusterRoleBuilder()
                            .withNewMetadata()
                            .withName(role)
                            .endMetadata()
                            .addNewRule()
                            .withApiGroups("authentication.k8s.io")
                            .withResources("tokenreviews")
                            .withVerbs("create")
                            .endRule()
                            .addNewRule()
                            .withApiGroups("authorization.k8s.io")
                            .withResources("subjectaccessreviews")
                            .withVerbs("create")
                            .endRule()
                            .build())
                    .create();
        }
        String binding = role + "-" + reviewBindings.size();
        bind(binding, role, namespace, serviceAccount);
        reviewBindings.add(binding);
    }

    private void bind(String binding, String role, String namespace, String serviceAccount) {
        admin.rbac()
                .clusterRoleBindings()
                .resource(new ClusterRoleBindingBuilder()
                        .withNewMetadata()
                        .withName(binding)
                        .endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", role)
                        .addNewSubject()
                        .withKind("ServiceAccount")
                        .withName(serviceAccount)
                        .withNamespace(namespace)
                        .endSubject()
                        .build())
                .create();
    }

    private String readerRole() {
        return name + "-metrics-reader";
    }

    private String token(String sa) {
        return admin.serviceAccounts()
                .inNamespace(name)
                .withName(sa)
                .tokenRequest(new TokenRequestBuilder()
                        .withNewSpec()
                        .withExpirationSeconds(600L)
                        .endSpec()
                        .build())
                .getStatus()
                .getToken();
    }

    /** What an earlier run of the same name left (a killed test JVM on a plane that outlived it). */
    private void removeLeftovers() {
        admin.rbac().clusterRoleBindings().list().getItems().forEach(b -> {
            if (b.getMetadata().getName().startsWith(name + "-")) {
                admin.rbac().clusterRoleBindings().resource(b).delete();
            }
        });
        admin.rbac().clusterRoles().withName(readerRole()).delete();
        admin.rbac().clusterRoles().withName(name + "-reviews").delete();
        admin.namespaces().withName(name).delete();
        // A namespace being deleted cannot take new objects: wait until it is gone.
        admin.namespaces().withName(name).waitUntilCondition(n -> n == null, 60, java.util.concurrent.TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        for (String b : reviewBindings) {
            admin.rbac().clusterRoleBindings().withName(b).delete();
        }
        admin.rbac().clusterRoleBindings().withName(readerRole()).delete();
        admin.rbac().clusterRoles().withName(readerRole()).delete();
        admin.rbac().clusterRoles().withName(name + "-reviews").delete();
        admin.namespaces().withName(name).delete();
    }
}
