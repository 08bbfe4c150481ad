package io.podnuma.operator.kube;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.operator.plan.PolicyEvent;
import io.podnuma.operator.reconcile.EventSink;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * core/v1 Events on the policy. A cluster-scoped object's Events live in {@code default}, where {@code kubectl
 * describe} finds them. A failed Event write is logged, never fails the reconcile.
 */
public final class KubeEventSink implements EventSink {

    static final String NAMESPACE = "default";
    private static final Logger LOG = LoggerFactory.getLogger(KubeEventSink.class);

    private final KubernetesClient client;
    private final String instance;
    private final AtomicLong sequence = new AtomicLong();

    /** @param instance this operator process (its pod name), as the Event's reporting instance */
    public KubeEventSink(KubernetesClient client, String instance) {
        this.client = client;
        this.instance = instance;
    }

    @Override
    public void record(NumaResourcePolicy policy, PolicyEvent event, Instant now) {
        String time = now.truncatedTo(ChronoUnit.SECONDS).toString();
        String name = policy.getMetadata().getName() + "."
                + Long.toHexString(now.toEpochMilli()).toLowerCase(Locale.ROOT)
                + Long.toHexString(sequence.incrementAndGet());
        Event e = new EventBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NAMESPACE)
                .endMetadata()
                .withNewInvolvedObject()
                .withApiVersion(policy.getApiVersion())
                .withKind(policy.getKind())
                .withName(policy.getMetadata().getName())
                .withUid(policy.getMetadata().getUid())
                .withResourceVersion(policy.getMetadata().getResourceVersion())
                .endInvolvedObject()
                .withType(event.type().wire())
                .withReason(event.reason().wire())
                .withMessage(event.message())
                .withFirstTimestamp(time)
                .withLastTimestamp(time)
                .withCount(1)
                .withNewSource()
                .withComponent(FieldManager.NAME)
                .endSource()
                .withReportingComponent(FieldManager.NAME)
                .withReportingInstance(instance)
                .build();
        try {
            client.v1().events().inNamespace(NAMESPACE).resource(e).create();
        } catch (RuntimeException ex) {
            LOG.warn(
                    "could not record Event {} on policy {}: {}",
                    event.reason().wire(),
                    policy.getMetadata().getName(),
                    ex.getMessage());
        }
    }
}
