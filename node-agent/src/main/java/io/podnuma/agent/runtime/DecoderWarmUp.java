package io.podnuma.agent.runtime;

import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the client's JSON decoder for pods on a thread of its own while the agent starts.
 *
 * <p>Jackson makes a type's decoder on first use, for the pod model a few hundred classes and accessors: on the
 * first pod list that is some hundreds of milliseconds between the response and the full sync, on the path to ready.
 * Made here, meanwhile the client is built, the configuration read and the TLS connection opened, the list only
 * finds it in the cache of the same {@link KubernetesSerialization}.
 */
public final class DecoderWarmUp {

    private static final Logger LOG = LoggerFactory.getLogger(DecoderWarmUp.class);

    /** A pod list with the parts of a pod the agent reads, so their decoders are made too. */
    private static final String SAMPLE = """
            {"apiVersion":"v1","kind":"PodList","metadata":{"resourceVersion":"1"},"items":[{"apiVersion":"v1",
            "kind":"Pod","metadata":{"name":"warm-up","namespace":"default","uid":"00000000-0000-0000-0000-000000000000",
            "creationTimestamp":"2026-01-01T00:00:00Z","labels":{"a":"b"},"annotations":{"a":"b"}},
            "spec":{"nodeName":"n","resources":{"requests":{"cpu":"1"}},"containers":[{"name":"c",
            "resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"1","memory":"1Gi"}}}]},
            "status":{"phase":"Running","qosClass":"Guaranteed","containerStatuses":[{"name":"c","ready":true,
            "restartCount":0,"image":"i","imageID":"i","containerID":"containerd://0",
            "state":{"running":{"startedAt":"2026-01-01T00:00:00Z"}}}]}}]}
            """;

    private DecoderWarmUp() {}

    /** What the warm-up does: decodes a small pod list with {@code serialization}. */
    static PodList decodeSample(KubernetesSerialization serialization) {
        return serialization.unmarshal(SAMPLE, PodList.class);
    }

    /** Starts the warm-up on a daemon thread and returns at once; a failure is only logged (nothing depends on it). */
    public static Thread start(KubernetesSerialization serialization) {
        Thread t = new Thread(
                () -> {
                    try {
                        decodeSample(serialization);
                    } catch (RuntimeException e) {
                        LOG.debug("warming up the pod decoder failed: {}", e.toString());
                    }
                },
                "podnuma-decoder-warm-up");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
