package io.podnuma.agent.testing;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import java.util.Map;

/** Resource requirements of the test pods' specs and containers. */
public final class TestResources {

    private TestResources() {}

    /** Requests equal to limits, CPU and memory: what makes a pod (or its budget) Guaranteed. */
    public static ResourceRequirements guaranteed(String cpu, String memory) {
        Map<String, Quantity> both = Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory));
        return new ResourceRequirementsBuilder()
                .addToRequests(both)
                .addToLimits(both)
                .build();
    }
}
