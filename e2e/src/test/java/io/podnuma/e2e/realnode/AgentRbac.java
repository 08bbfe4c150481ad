package io.podnuma.e2e.realnode;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import java.util.List;

/**
 * The agent's identity: its ServiceAccount and the ClusterRole its docs list ({@code node-agent/docs/behaviour.md},
 * "RBAC the agent needs"), nothing more, so a real agent pod proves the list is enough. The chart will ship the same
 * rules.
 */
final class AgentRbac {

    static final String NAME = "podnuma-agent";

    private AgentRbac() {}

    static List<HasMetadata> objects(String namespace) {
        return List.of(
                new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(namespace)
                        .endMetadata()
                        .build(),
                new ServiceAccountBuilder()
                        .withNewMetadata()
                        .withName(NAME)
                        .withNamespace(namespace)
                        .endMetadata()
                        .build(),
                new ClusterRoleBuilder()
                        .withNewMetadata()
                        .withName(NAME)
                        .endMetadata()
                        .withRules(rules())
                        .build(),
                new ClusterRoleBindingBuilder()
                        .withNewMetadata()
                        .withName(NAME)
                        .endMetadata()
                        .withNewRoleRef()
                        .withApiGroup("rbac.authorization.k8s.io")
                        .withKind("ClusterRole")
                        .withName(NAME)
                        .endRoleRef()
                        .addNewSubject()
                        .withKind("ServiceAccount")
                        .withName(NAME)
                        .withNamespace(namespace)
                        .endSubject()
                        .build());
    }

    static List<PolicyRule> rules() {
        return List.of(
                rule("", List.of("pods"), "get", "list", "watch"),
                rule("", List.of("pods/eviction"), "create"),
                rule("", List.of("events"), "create", "patch"),
                rule("", List.of("nodes"), "get"),
                rule("podnuma.io", List.of("numanodestates", "numanodestates/status"), "get", "create", "patch"),
                rule("podnuma.io", List.of("numanodestates"), "delete"),
                rule("topology.node.k8s.io", List.of("noderesourcetopologies"), "get", "create", "patch", "delete"));
    }

    private static PolicyRule rule(String group, List<String> resources, String... verbs) {
        return new PolicyRuleBuilder()
                .withApiGroups(group)
                .withResources(resources)
                .withVerbs(verbs)
                .build();
    }
}
