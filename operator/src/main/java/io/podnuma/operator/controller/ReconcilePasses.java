package io.podnuma.operator.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts the reconciles of each policy that have ended. The SDK says a reconcile ended only after it wrote what the
 * reconciler returned (the status, the finalizer's removal), so every write of that pass has reached the API server by
 * then: a test that needs to know the operator has looked at a change, before it asserts the operator left something
 * alone, waits for this count instead of sleeping.
 *
 * <p>Kept after a policy is gone: a name and two numbers per policy this process reconciled. Forgetting at the SDK's
 * cleanup would not help, as the SDK says the pass ended only after it.
 */
final class ReconcilePasses implements Metrics {

    /**
     * @param all the reconciles that ended
     * @param deleting those of them that saw the policy marked for deletion (its cleanup)
     */
    record Count(long all, long deleting) {
        static final Count NONE = new Count(0, 0);

        Count plus(Count other) {
            return new Count(all + other.all, deleting + other.deleting);
        }
    }

    private final Map<String, Count> ended = new ConcurrentHashMap<>();

    @Override
    public void reconciliationExecutionFinished(HasMetadata resource, Map<String, Object> metadata) {
        // None when the policy left the cache before its pass began: nothing was reconciled then.
        if (resource == null) {
            return;
        }
        boolean deleting = resource.getMetadata().getDeletionTimestamp() != null;
        ended.merge(resource.getMetadata().getName(), new Count(1, deleting ? 1 : 0), Count::plus);
    }

    Count of(String policy) {
        return ended.getOrDefault(policy, Count.NONE);
    }
}
