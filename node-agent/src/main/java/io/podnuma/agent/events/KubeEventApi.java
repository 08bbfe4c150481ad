package io.podnuma.agent.events;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;

/**
 * {@link EventApi} on core/v1 Events. Plain requests (see {@link ApiRequests}): a create is a POST, a repeat a merge
 * patch by name, so the agent needs only {@code create} and {@code patch} on events (fabric8's patch would read the
 * Event first and need {@code get} too).
 */
final class KubeEventApi implements EventApi {

    private final ApiRequests requests;

    KubeEventApi(KubernetesClient client, Duration timeout) {
        this.requests = new ApiRequests(client, timeout);
    }

    @Override
    public void create(Event event) {
        String path = "/api/v1/namespaces/" + event.getMetadata().getNamespace() + "/events";
        ApiRequests.Answer answer = requests.post(path, event);
        if (!answer.successful()) {
            throw requests.failure("creating event " + event.getMetadata().getName(), answer);
        }
    }

    @Override
    public void updateCount(String namespace, String name, int count, Instant lastTimestamp) {
        // Only the two fields: the rest of the Event (message, source, first time) stays as created.
        String patch =
                "{\"count\":" + count + ",\"lastTimestamp\":\"" + KubeEventRecorder.timestamp(lastTimestamp) + "\"}";
        ApiRequests.Answer answer = requests.mergePatch("/api/v1/namespaces/" + namespace + "/events/" + name, patch);
        if (!answer.successful()) {
            throw requests.failure("updating event " + name, answer);
        }
    }
}
