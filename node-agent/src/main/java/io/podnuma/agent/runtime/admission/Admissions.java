package io.podnuma.agent.runtime.admission;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.device.PodDevices;
import io.podnuma.agent.engine.node.AdmissionResult;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.node.RejectionReason;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.podresources.DeviceSource;
import io.podnuma.agent.pods.PodRecord;
import io.podnuma.agent.runtime.pods.Refusal;
import io.podnuma.agent.runtime.pods.RefusalReason;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Asks the engine about one pod and says what to do: admit, refuse (and whether to evict), or not keep its CPUs. */
public final class Admissions {

    private static final Logger LOG = LoggerFactory.getLogger(Admissions.class);

    private final NodeAllocator allocator;
    private final AgentMetrics metrics;
    private final AdmissionAction action;
    private final DeviceSource devices;

    /**
     * @param action what a refusal means: {@link AdmissionAction#EVICT} evicts the pod, otherwise it runs unpinned
     * @param devices where the devices the kubelet gave a pod are read (a pod asking for devices is placed with them)
     */
    public Admissions(NodeAllocator allocator, AgentMetrics metrics, AdmissionAction action, DeviceSource devices) {
        this.allocator = allocator;
        this.metrics = metrics;
        this.action = action;
        this.devices = devices;
    }

    /** Admits a readable pod afresh. */
    public AdmissionDecision admit(NodeState state, PodRecord r) {
        return decide(state, r, Optional.empty());
    }

    /**
     * Admits a pod only on {@code cpus} (the rebuild placing a pod where its containers are); a refusal there is no
     * refusal, the pod is admitted afresh after the others.
     */
    public AdmissionDecision admitWithin(NodeState state, PodRecord r, CpuSet cpus) {
        return decide(state, r, Optional.of(cpus));
    }

    /** A pod whose spec the agent cannot read. */
    public AdmissionDecision.Refuse refuseUnreadable(PodRecord r) {
        return refuse(new Refusal(
                r.ref(),
                RefusalReason.Runtime.POD_SPEC_UNREADABLE,
                r.unreadable().orElse("the pod spec cannot be read")));
    }

    private AdmissionDecision decide(NodeState state, PodRecord r, Optional<CpuSet> within) {
        Pod pod = r.pod().orElseThrow();
        long t0 = System.nanoTime();
        PodDevices given = PodDevices.NONE;
        if (!r.devices().isEmpty() && devices.knowsDevices()) {
            given = GivenDevices.of(
                    r.ref(),
                    r.devices(),
                    devices.pod(r.ref().namespace(), r.ref().name()),
                    devices.allocatable());
            Optional<String> missing = GivenDevices.missing(r.devices(), given);
            if (missing.isPresent()) {
                return new AdmissionDecision.Later(
                        r.ref(),
                        "the kubelet has not given it its devices yet (" + missing.get() + ")",
                        r.containerIds().current().isEmpty()
                                ? AdmissionDecision.Lag.BEFORE_ADMISSION
                                : AdmissionDecision.Lag.OVERDUE);
            }
        }
        AdmissionResult result;
        try {
            result = within.isPresent()
                    ? allocator.admitWithin(state, pod, within.get(), given)
                    : allocator.admit(state, pod, given);
        } catch (IllegalArgumentException e) {
            // Only a degraded node (books that no longer add up after a policy change) gets here.
            result = new AdmissionResult.Rejected(
                    r.ref(),
                    RejectionReason.UNEXPECTED_ADMISSION_ERROR,
                    "the node cannot place new pods until its policy conflict is resolved: " + e.getMessage());
        }
        if (within.isPresent() && result instanceof AdmissionResult.Rejected rej) {
            LOG.info(
                    "pod {} cannot keep CPUs {}: {}; it is admitted afresh",
                    r.ref(),
                    within.get(),
                    rej.reason().wire() + ": " + rej.message());
            return new AdmissionDecision.NotKept();
        }
        AdmissionMetrics.record(metrics, pod, result, Duration.ofNanos(System.nanoTime() - t0));
        return switch (result) {
            case AdmissionResult.Admitted a -> new AdmissionDecision.Admit(r.ref(), a.state());
            case AdmissionResult.Rejected rej -> refuse(Refusal.of(rej));
        };
    }

    private AdmissionDecision.Refuse refuse(Refusal refusal) {
        boolean evict = action == AdmissionAction.EVICT && refusal.reason().evictable();
        return new AdmissionDecision.Refuse(
                refusal, evict ? AdmissionDecision.Consequence.EVICT : AdmissionDecision.Consequence.SHARED_POOL);
    }
}
