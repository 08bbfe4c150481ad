package io.podnuma.helm.privilege;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What each podnuma identity may do once the chart is installed, as {@code kubectl auth can-i --list} shows it: the one
 * expected matrix. {@link LeastPrivilegeIT} holds the live API server to it, {@link PrivilegesReadmeTest} the README's
 * table. Kubernetes' own defaults for every authenticated user are listed too, so the comparison is exact.
 */
public final class Privileges {

    /** Whose grant. */
    public enum Holder {
        OPERATOR("operator"),
        AGENT("agent"),
        /**
         * Kubernetes' default bindings for every authenticated user (system:basic-user, system:discovery,
         * system:public-info-viewer) and every ServiceAccount (issuer and trust-bundle discovery).
         */
        EVERY_SERVICE_ACCOUNT("every ServiceAccount (Kubernetes' defaults)");

        private final String label;

        Holder(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** Where a grant holds: what a Role binding can narrow it to. */
    public enum Scope {
        CLUSTER("cluster-wide"),
        RELEASE_NAMESPACE("the release namespace"),
        /** Where Events of cluster-scoped objects (the policies) live. */
        DEFAULT_NAMESPACE("namespace `default`");

        private final String label;

        Scope(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** Which part of the chart makes the grant: always, or the chart value that turns it on. */
    public enum Part {
        ALWAYS(null),
        NODE_RESOURCE_TOPOLOGY("nodeResourceTopology.enabled"),
        /** {@code /metrics} over https: each new scrape token is checked with the API server. */
        SECURE_METRICS("metrics.secure.enabled");

        private final String value;

        Part(String value) {
            this.value = value;
        }

        /** The boolean chart value that makes the grant; empty for {@link #ALWAYS}. */
        public java.util.Optional<String> value() {
            return java.util.Optional.ofNullable(value);
        }
    }

    /**
     * One row: {@code resource} is kubectl's form ({@code numanodestates.podnuma.io/status}) or, starting with
     * {@code /}, a non-resource URL.
     */
    public record Grant(
            Holder holder,
            String resource,
            List<String> resourceNames,
            Set<String> verbs,
            Scope scope,
            Part part,
            String why) {

        public Grant {
            resourceNames = List.copyOf(resourceNames);
            verbs = Set.copyOf(verbs);
        }

        public boolean nonResourceUrl() {
            return resource.startsWith("/");
        }
    }

    public static final List<Grant> GRANTS = List.of(
            // The operator.
            operator(
                    "numaresourcepolicies.podnuma.io",
                    Scope.CLUSTER,
                    "the policies it reconciles (cluster-scoped): its finalizer",
                    "get",
                    "list",
                    "watch",
                    "patch",
                    "update"),
            operator(
                    "numaresourcepolicies.podnuma.io/status",
                    Scope.CLUSTER,
                    "the policies' status",
                    "get",
                    "patch",
                    "update"),
            operator(
                    "numanodestates.podnuma.io",
                    Scope.CLUSTER,
                    "the agents' reports, aggregated into the policies' status; never written",
                    "get",
                    "list",
                    "watch"),
            operator(
                    "nodes",
                    Scope.CLUSTER,
                    "assignment reads every node and sets or removes its podnuma.io/policy label; nodes are"
                            + " cluster-scoped and their names unknown in advance, so no Role or resourceNames narrows"
                            + " it, and the operator's ValidatingAdmissionPolicy refuses any other change (other labels, annotations,"
                            + " finalizers, owner references, the spec)",
                    "get",
                    "list",
                    "watch",
                    "patch"),
            operator(
                    "events",
                    Scope.DEFAULT_NAMESPACE,
                    "Events on the cluster-scoped policies, which live in `default`; never patched",
                    "create"),
            operator(
                    "daemonsets.apps",
                    Scope.RELEASE_NAMESPACE,
                    "each policy's agent DaemonSet; a ValidatingAdmissionPolicy holds what it creates or changes to the"
                            + " agent as the chart configures it (image, ServiceAccount, no privilege, host paths:"
                            + " `AgentDaemonSetAdmissionIT`)",
                    "get",
                    "list",
                    "watch",
                    "create",
                    "patch",
                    "delete"),
            operator(
                    "configmaps",
                    Scope.RELEASE_NAMESPACE,
                    "each policy's agent config file",
                    "get",
                    "list",
                    "watch",
                    "create",
                    "patch",
                    "delete"),
            operator(
                    "services",
                    Scope.RELEASE_NAMESPACE,
                    "each policy's headless agent metrics Service",
                    "get",
                    "list",
                    "watch",
                    "create",
                    "patch",
                    "delete"),
            operator(
                    "servicemonitors.monitoring.coreos.com",
                    Scope.RELEASE_NAMESPACE,
                    "each policy's agent ServiceMonitor, when the Prometheus Operator is there",
                    "get",
                    "create",
                    "patch",
                    "delete"),
            operator(
                    "leases.coordination.k8s.io",
                    Scope.RELEASE_NAMESPACE,
                    "leader election: one replica reconciles",
                    "get",
                    "create",
                    "update"),
            operatorWhen(
                    "tokenreviews.authentication.k8s.io",
                    Part.SECURE_METRICS,
                    "/metrics over https: who a scrape's bearer token belongs to (a TokenReview; cluster-scoped,"
                            + " answered per token, cached for metrics.secure.authCacheTtl)",
                    "create"),
            operatorWhen(
                    "subjectaccessreviews.authorization.k8s.io",
                    Part.SECURE_METRICS,
                    "/metrics over https: whether that identity may get /metrics (a SubjectAccessReview;"
                            + " cluster-scoped)",
                    "create"),
            // The agent: the pods of every namespace may land on its node, hence cluster-wide grants.
            agent(
                    "pods",
                    Part.ALWAYS,
                    "the pods on its node (a field selector on spec.nodeName, which RBAC cannot enforce)",
                    "get",
                    "list",
                    "watch"),
            agent(
                    "pods/eviction",
                    Part.ALWAYS,
                    "evicting a pod of its node that it cannot admit (admission action Evict), only as its node"
                            + " (constrained impersonation): the Node authorizer and NodeRestriction refuse a pod bound"
                            + " to another node, and it cannot evict as itself",
                    "impersonate-on:associated-node:create"),
            agent(
                    "pods/status",
                    Part.ALWAYS,
                    "a resized pod's podnuma.io/ResizePending condition, only as its node (constrained"
                            + " impersonation): NodeRestriction refuses the status of a pod bound to another node",
                    "impersonate-on:associated-node:patch"),
            agent(
                    "nodes.authentication.k8s.io",
                    Part.ALWAYS,
                    "acting as the node its pod runs on (system:node:<its node>, taken from its pod-bound token by"
                            + " the API server; no other node), for evictions and resize conditions only",
                    "impersonate:associated-node"),
            agent(
                    "events",
                    Part.ALWAYS,
                    "Events on its node's pods (any namespace) and on its Node; a repeat patches the count",
                    "create",
                    "patch"),
            agent(
                    "nodes",
                    Part.ALWAYS,
                    "its own Node: the podnuma.io/policy label, read at start and at SIGTERM",
                    "get"),
            agent(
                    "numanodestates.podnuma.io",
                    Part.ALWAYS,
                    "its node's NumaNodeState; the ValidatingAdmissionPolicy denies every other name",
                    "get",
                    "create",
                    "patch",
                    "delete"),
            agent(
                    "numanodestates.podnuma.io/status",
                    Part.ALWAYS,
                    "its node's NumaNodeState status; the same admission policy",
                    "get",
                    "create",
                    "patch"),
            agent(
                    "noderesourcetopologies.topology.node.k8s.io",
                    Part.NODE_RESOURCE_TOPOLOGY,
                    "its node's NodeResourceTopology; the same admission policy",
                    "get",
                    "create",
                    "patch",
                    "delete"),
            agent(
                    "tokenreviews.authentication.k8s.io",
                    Part.SECURE_METRICS,
                    "/metrics over https: who a scrape's bearer token belongs to (a TokenReview, cached per token)",
                    "create"),
            agent(
                    "subjectaccessreviews.authorization.k8s.io",
                    Part.SECURE_METRICS,
                    "/metrics over https: whether that identity may get /metrics (a SubjectAccessReview)",
                    "create"),
            // Every authenticated user, every ServiceAccount.
            everyone("selfsubjectreviews.authentication.k8s.io", "who am I (system:basic-user)", "create"),
            everyone("selfsubjectaccessreviews.authorization.k8s.io", "may I (system:basic-user)", "create"),
            everyone("selfsubjectrulesreviews.authorization.k8s.io", "what may I (system:basic-user)", "create"),
            everyone(
                    "clustertrustbundles.certificates.k8s.io",
                    "public CA bundles (system:cluster-trust-bundle-discovery)",
                    "get",
                    "list",
                    "watch"),
            everyone("/.well-known/openid-configuration", "issuer (system:service-account-issuer-discovery)", "get"),
            everyone("/.well-known/openid-configuration/", "issuer (system:service-account-issuer-discovery)", "get"),
            everyone("/openid/v1/jwks", "issuer keys (system:service-account-issuer-discovery)", "get"),
            everyone("/openid/v1/jwks/", "issuer keys (system:service-account-issuer-discovery)", "get"),
            everyone("/api", "discovery (system:discovery)", "get"),
            everyone("/api/*", "discovery (system:discovery)", "get"),
            everyone("/apis", "discovery (system:discovery)", "get"),
            everyone("/apis/*", "discovery (system:discovery)", "get"),
            everyone("/healthz", "health (system:public-info-viewer)", "get"),
            everyone("/livez", "health (system:public-info-viewer)", "get"),
            everyone("/openapi", "discovery (system:discovery)", "get"),
            everyone("/openapi/*", "discovery (system:discovery)", "get"),
            everyone("/readyz", "health (system:public-info-viewer)", "get"),
            everyone("/version", "version (system:public-info-viewer)", "get"),
            everyone("/version/", "version (system:public-info-viewer)", "get"));

    private Privileges() {}

    /** The grants of {@code holder} (and every user's) that hold in a namespace of the given scope. */
    public static List<Grant> inForce(Holder holder, Scope namespace, boolean nodeResourceTopology) {
        return inForce(
                holder,
                namespace,
                nodeResourceTopology ? Set.of(Part.ALWAYS, Part.NODE_RESOURCE_TOPOLOGY) : Set.of(Part.ALWAYS));
    }

    /** As above, with the parts whose chart values are on ({@link Part#ALWAYS} is always in force). */
    public static List<Grant> inForce(Holder holder, Scope namespace, Set<Part> on) {
        List<Grant> in = new ArrayList<>();
        for (Grant g : GRANTS) {
            boolean whose = g.holder() == holder || g.holder() == Holder.EVERY_SERVICE_ACCOUNT;
            boolean where = g.scope() == Scope.CLUSTER || g.scope() == namespace;
            boolean part = g.part() == Part.ALWAYS || on.contains(g.part());
            if (whose && where && part) {
                in.add(g);
            }
        }
        return in;
    }

    private static Grant operator(String resource, Scope scope, String why, String... verbs) {
        return new Grant(Holder.OPERATOR, resource, List.of(), Set.of(verbs), scope, Part.ALWAYS, why);
    }

    private static Grant operatorWhen(String resource, Part part, String why, String... verbs) {
        return new Grant(Holder.OPERATOR, resource, List.of(), Set.of(verbs), Scope.CLUSTER, part, why);
    }

    private static Grant agent(String resource, Part part, String why, String... verbs) {
        return new Grant(Holder.AGENT, resource, List.of(), Set.of(verbs), Scope.CLUSTER, part, why);
    }

    private static Grant everyone(String resource, String why, String... verbs) {
        return new Grant(
                Holder.EVERY_SERVICE_ACCOUNT, resource, List.of(), Set.of(verbs), Scope.CLUSTER, Part.ALWAYS, why);
    }
}
