package io.podnuma.agent.nri;

import io.podnuma.nri.v1alpha1.ContainerAdjustment;
import io.podnuma.nri.v1alpha1.ContainerUpdate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The answer to CreateContainer: the adjustment of the container being created (its {@code cpus}/{@code mems},
 * written into the OCI spec before the container exists) and updates of other containers (a shrinking shared pool).
 */
public record CreateResult(Optional<ContainerAdjustment> adjust, List<ContainerUpdate> updates) {

    public CreateResult {
        Objects.requireNonNull(adjust, "adjust");
        updates = List.copyOf(updates);
    }

    public static CreateResult none() {
        return new CreateResult(Optional.empty(), List.of());
    }
}
