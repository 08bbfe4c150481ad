package io.podnuma.agent.runtime.admission;

import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.runtime.pods.Refusal;
import java.util.Objects;

/** What the agent does with one pod it was asked to admit. */
public sealed interface AdmissionDecision {

    /** The pod is held: {@code state} includes it. */
    record Admit(PodRef pod, NodeState state) implements AdmissionDecision {
        public Admit {
            Objects.requireNonNull(pod, "pod");
            Objects.requireNonNull(state, "state");
        }
    }

    /** The pod cannot keep the CPUs its containers hold; it is no refusal, the pod is admitted afresh later. */
    record NotKept() implements AdmissionDecision {}

    /**
     * Not decided yet: the kubelet has not given the pod the devices it asks for, and where they are decides where
     * its CPUs go. The pod's next change (its containers being created) or the next full sync asks again; until then
     * it runs as an undecided pod does, on the node's shared pool.
     */
    record Later(PodRef pod, String why, Lag lag) implements AdmissionDecision {
        public Later {
            Objects.requireNonNull(pod, "pod");
            Objects.requireNonNull(why, "why");
            Objects.requireNonNull(lag, "lag");
        }
    }

    /** Whether waiting for the kubelet's devices is the usual course or worth telling. */
    enum Lag {
        /** The kubelet has not admitted the pod yet (no container of it exists): it gives the devices when it does. */
        BEFORE_ADMISSION,
        /** The pod's containers exist and the kubelet still lists fewer devices than it asks for. */
        OVERDUE
    }

    /** The pod is refused; {@code evict}: and evicted ({@code admission: Evict}), otherwise it runs unpinned. */
    record Refuse(Refusal refusal, Consequence consequence) implements AdmissionDecision {
        public Refuse {
            Objects.requireNonNull(refusal, "refusal");
            Objects.requireNonNull(consequence, "consequence");
        }
    }

    /** What a refusal means for the pod. */
    enum Consequence {
        /** It runs in the node's shared pool. */
        SHARED_POOL,
        /** It is evicted through the Eviction API. */
        EVICT;

        /** How the Event on the pod ends. */
        public String outcome() {
            return this == EVICT ? "; evicting it (admission: Evict)" : "; it runs in the node's shared pool";
        }
    }
}
