package io.podnuma.agent.nri;

import io.podnuma.nri.v1alpha1.ContainerUpdate;
import java.util.List;

/** The answer to the runtime's full state: updates of existing containers (their cpusets, say). */
public record SynchronizeResult(List<ContainerUpdate> updates) {

    public SynchronizeResult {
        updates = List.copyOf(updates);
    }

    public static SynchronizeResult none() {
        return new SynchronizeResult(List.of());
    }
}
