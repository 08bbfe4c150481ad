package io.podnuma.testkit.nri;

import io.podnuma.nri.v1alpha1.Container;
import io.podnuma.nri.v1alpha1.PodSandbox;
import java.util.List;
import java.util.Optional;

/** What the harness runtime keeps: its pods and containers (cpusets as the plugins set them), sorted by id. */
public record RuntimeState(List<PodSandbox> pods, List<Container> containers) {

    public RuntimeState {
        pods = List.copyOf(pods);
        containers = List.copyOf(containers);
    }

    public Optional<Container> container(String id) {
        return containers.stream().filter(c -> c.getId().equals(id)).findFirst();
    }
}
