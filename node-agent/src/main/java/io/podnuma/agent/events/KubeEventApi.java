package io.podnuma.agent.events;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Instant;
import java.util.Objects;

/** {@link EventApi} on core/v1 Events through fabric8. */
final class KubeEventApi implements EventApi {

    private final KubernetesClient client;

    KubeEventApi(KubernetesClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    @Override
    public void create(Event event) {
        client.v1()
                .events()
                .inNamespace(event.getMetadata().getNamespace())
                .resource(event)
                .create();
    }

    @Override
    public void updateCount(String namespace, String name, int count, Instant lastTimestamp) {
        // A merge patch of the two fields only: the rest of the Event (message, source, first time) stays as created.
        String patch =
                "{\"count\":" + count + ",\"lastTimestamp\":\"" + KubeEventRecorder.timestamp(lastTimestamp) + "\"}";
        client.v1().events().inNamespace(namespace).withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    }
}
