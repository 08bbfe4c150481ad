package io.podnuma.helm;

import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent's rules as its docs list them (node-agent/docs/behaviour.md, "RBAC the agent needs"). The real-node E2Es
 * run the real agent pod under the chart's own rendering of them, so what the chart grants is proved enough.
 */
final class AgentRules {

    private AgentRules() {}

    static List<PolicyRule> rules(boolean nodeResourceTopology) {
        return rules(nodeResourceTopology, false);
    }

    /** With {@code secureMetrics}: the two reviews an https /metrics asks for each new scrape token. */
    static List<PolicyRule> rules(boolean nodeResourceTopology, boolean secureMetrics) {
        List<PolicyRule> rules = new ArrayList<>(List.of(
                rule("", List.of("pods"), "get", "list", "watch"),
                rule("", List.of("pods/eviction"), "impersonate-on:associated-node:create"),
                rule("", List.of("pods/status"), "impersonate-on:associated-node:patch"),
                rule("authentication.k8s.io", List.of("nodes"), "impersonate:associated-node"),
                rule("", List.of("events"), "create", "patch"),
                rule("", List.of("nodes"), "get"),
                rule("podnuma.io", List.of("numanodestates", "numanodestates/status"), "get", "create", "patch"),
                rule("podnuma.io", List.of("numanodestates"), "delete")));
        if (secureMetrics) {
            rules.add(rule("authentication.k8s.io", List.of("tokenreviews"), "create"));
            rules.add(rule("authorization.k8s.io", List.of("subjectaccessreviews"), "create"));
        }
        if (nodeResourceTopology) {
            rules.add(rule(
                    "topology.node.k8s.io", List.of("noderesourcetopologies"), "get", "create", "patch", "delete"));
        }
        return List.copyOf(rules);
    }

    private static PolicyRule rule(String group, List<String> resources, String... verbs) {
        return new PolicyRuleBuilder()
                .withApiGroups(group)
                .withResources(resources)
                .withVerbs(verbs)
                .build();
    }
}
