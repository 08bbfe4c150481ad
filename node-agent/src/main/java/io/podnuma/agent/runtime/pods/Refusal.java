package io.podnuma.agent.runtime.pods;

import io.podnuma.agent.engine.node.AdmissionResult;
import io.podnuma.agent.engine.pod.PodRef;
import java.util.Objects;

/** A pod the agent does not pin, and why. */
public record Refusal(PodRef pod, RefusalReason reason, String message) {

    public Refusal {
        Objects.requireNonNull(pod, "pod");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(message, "message");
    }

    public static Refusal of(AdmissionResult.Rejected rejected) {
        return new Refusal(rejected.pod(), new RefusalReason.Engine(rejected.reason()), rejected.message());
    }
}
