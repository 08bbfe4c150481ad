package io.podnuma.agent.nri;

import io.podnuma.nri.v1alpha1.Container;
import io.podnuma.nri.v1alpha1.PodSandbox;
import io.podnuma.nri.v1alpha1.SynchronizeRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * The chunks of a split Synchronize collected so far (NRI v0.7 and newer split a state too large for one 4 MiB
 * message). Until the last chunk the plugin answers {@code more} as the request's with no updates, or the runtime
 * drops it; the handler sees the whole state once.
 */
record SyncChunks(List<PodSandbox> pods, List<Container> containers, int chunks) {

    static final SyncChunks NONE = new SyncChunks(List.of(), List.of(), 0);

    SyncChunks {
        pods = List.copyOf(pods);
        containers = List.copyOf(containers);
    }

    SyncChunks plus(SynchronizeRequest chunk) {
        List<PodSandbox> p = new ArrayList<>(pods);
        p.addAll(chunk.getPodsList());
        List<Container> c = new ArrayList<>(containers);
        c.addAll(chunk.getContainersList());
        return new SyncChunks(p, c, chunks + 1);
    }
}
