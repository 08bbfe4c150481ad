package io.podnuma.operator.reconcile;

import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.operator.plan.PolicyEvent;
import java.time.Instant;

/** Records Events on a policy, where {@code kubectl describe nrp} shows them. */
public interface EventSink {

    void record(NumaResourcePolicy policy, PolicyEvent event, Instant now);
}
