package io.podnuma.agent.pods;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The node's pods as the runtime hears of them: the API objects of a {@link PodSource}, each read once into a
 * {@link PodRecord}. The API's {@code Pod} type stops here; objects without a UID are no pod of ours and dropped.
 */
public final class PodFeed implements AutoCloseable {

    /** What the feed tells; called from the source's own threads. */
    public interface Listener {
        void changed(PodRecord pod);

        void deleted(String uid);
    }

    private final PodSource source;
    private final PodMapper mapper;

    public PodFeed(PodSource source, PodMapper mapper) {
        this.source = Objects.requireNonNull(source, "source");
        this.mapper = Objects.requireNonNull(mapper, "mapper");
    }

    /** Starts watching; returns at once (the API server may be away). */
    public void start(Listener listener) {
        source.start(new PodSource.Listener() {
            @Override
            public void changed(Pod pod) {
                if (identified(pod)) {
                    listener.changed(PodRecord.of(pod, mapper));
                }
            }

            @Override
            public void deleted(Pod pod) {
                if (identified(pod)) {
                    listener.deleted(pod.getMetadata().getUid());
                }
            }
        });
    }

    /** @return false when the first full list has not arrived within {@code timeout} */
    public boolean awaitSynced(Duration timeout) throws InterruptedException {
        return source.awaitSynced(timeout);
    }

    /** Every pod of the node as last listed or watched. */
    public List<PodRecord> list() {
        List<PodRecord> out = new ArrayList<>();
        for (Pod p : source.list()) {
            out.add(PodRecord.of(p, mapper));
        }
        return out;
    }

    private static boolean identified(Pod pod) {
        return pod.getMetadata() != null && pod.getMetadata().getUid() != null;
    }

    @Override
    public void close() {
        source.close();
    }
}
