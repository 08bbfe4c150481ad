package io.podnuma.operator.assign;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;

/**
 * What node assignment needs to know of one policy.
 *
 * @param deleting the policy has a deletionTimestamp: it governs nothing from then on
 */
public record PolicyCandidate(
        String name, String uid, int priority, Instant createdAt, boolean deleting, NodeSelector selector) {

    /**
     * Who wins a node several policies select: the highest priority, then the oldest, then the name. The name makes
     * the order total, so the result does not depend on the order the policies were listed in.
     */
    public static final Comparator<PolicyCandidate> PRECEDENCE = Comparator.comparingInt(PolicyCandidate::priority)
            .reversed()
            .thenComparing(PolicyCandidate::createdAt)
            .thenComparing(PolicyCandidate::name);

    public PolicyCandidate {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(selector, "selector");
    }

    /**
     * The candidate an API object describes.
     *
     * @throws IllegalArgumentException when the object has no creationTimestamp (one read from the API always has) or
     *     its selector is malformed ({@link NodeSelector#of})
     */
    public static PolicyCandidate of(NumaResourcePolicy policy) {
        ObjectMeta meta = policy.getMetadata();
        if (meta.getCreationTimestamp() == null) {
            throw new IllegalArgumentException("policy " + meta.getName()
                    + " has no creationTimestamp: only objects read from the API server can" + " be assigned nodes");
        }
        NumaResourcePolicySpec spec = policy.getSpec();
        return new PolicyCandidate(
                meta.getName(),
                meta.getUid(),
                spec == null ? NumaResourcePolicySpec.DEFAULT_PRIORITY : spec.priority(),
                Instant.parse(meta.getCreationTimestamp()),
                meta.getDeletionTimestamp() != null,
                spec == null ? NodeSelector.ALL : NodeSelector.of(spec.nodeSelector()));
    }

    /** Whether this policy takes part in the assignment and selects the node. */
    boolean claims(NodeCandidate node) {
        return !deleting && selector.selects(node.labels());
    }
}
