package io.podnuma.agent.runtime.admission;

import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.events.EventReason;
import io.podnuma.agent.events.EventType;
import io.podnuma.agent.pods.PodRecord;
import io.podnuma.agent.runtime.core.RuntimeEvents;
import io.podnuma.agent.runtime.pods.PodBook;
import io.podnuma.agent.runtime.pods.Refusal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Carries out admission decisions: the node state, the pod book, the Event on a refused pod and its eviction. */
public final class Decisions {

    private static final Logger LOG = LoggerFactory.getLogger(Decisions.class);

    private final Admissions admissions;
    private final PodBook pods;
    private final RuntimeEvents events;

    public Decisions(Admissions admissions, PodBook pods, RuntimeEvents events) {
        this.admissions = admissions;
        this.pods = pods;
        this.events = events;
    }

    /** The node state after {@code decision}; the same state unless the pod was admitted. */
    public NodeState carryOut(NodeState state, AdmissionDecision decision) {
        switch (decision) {
            case AdmissionDecision.Admit a -> {
                pods.admitted(a.pod().uid());
                return a.state();
            }
            case AdmissionDecision.NotKept n -> {
                return state;
            }
            case AdmissionDecision.Later l -> {
                // Asked again on each of the pod's changes and each full sync: said once, not at every ask, and not
                // before the kubelet admitted the pod (it gives the devices then).
                if (l.lag() == AdmissionDecision.Lag.OVERDUE
                        && pods.waiting(l.pod().uid())) {
                    LOG.info("pod {} is not decided yet: {}", l.pod(), l.why());
                    events.onPod(
                            l.pod(),
                            EventType.NORMAL,
                            EventReason.WAITING_FOR_DEVICES,
                            "not placed yet: " + l.why() + "; until then it runs on the node's shared pool");
                }
                return state;
            }
            case AdmissionDecision.Refuse r -> {
                refuse(r);
                return state;
            }
        }
    }

    /** A pod whose spec cannot be read is refused once. */
    public void refuseUnreadable(PodRecord r) {
        if (!pods.refused(r.ref().uid())) {
            refuse(admissions.refuseUnreadable(r));
        }
    }

    private void refuse(AdmissionDecision.Refuse decision) {
        Refusal rej = decision.refusal();
        pods.refuse(rej);
        String outcome = decision.consequence().outcome();
        EventReason reason = rej.reason().event();
        events.onPod(rej.pod(), EventType.WARNING, reason, rej.message() + outcome);
        LOG.warn("pod {} refused: {}: {}{}", rej.pod(), reason, rej.message(), outcome);
        if (decision.consequence() == AdmissionDecision.Consequence.EVICT
                && pods.evicting(rej.pod().uid())) {
            events.evict(rej.pod(), reason, rej.message());
        }
    }
}
