package io.podnuma.agent.events;

import io.fabric8.kubernetes.api.model.Event;
import java.time.Instant;

/**
 * The two writes the recorder makes. Failures surface as {@link io.fabric8.kubernetes.client.KubernetesClientException}
 * with the HTTP code (0 when no response came).
 */
interface EventApi {

    /** Creates the core/v1 Event (its namespace and name are set). */
    void create(Event event);

    /** Sets {@code count} and {@code lastTimestamp} of an existing Event; a 404 means it expired or was deleted. */
    void updateCount(String namespace, String name, int count, Instant lastTimestamp);
}
