package io.podnuma.agent.runtime.sync;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.pods.PodFeed;
import io.podnuma.agent.pods.PodRecord;
import io.podnuma.agent.runtime.admission.AdmissionDecision;
import io.podnuma.agent.runtime.admission.Admissions;
import io.podnuma.agent.runtime.admission.Decisions;
import io.podnuma.agent.runtime.admission.Resizes;
import io.podnuma.agent.runtime.core.NodeBook;
import io.podnuma.agent.runtime.pin.PlanApplier;
import io.podnuma.agent.runtime.pods.PodBook;
import io.podnuma.agent.runtime.status.AgentStatus;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pod changed or went away, after the first full sync: a new pod is admitted (or refused), an admitted one resized
 * in place to what the kubelet allocated ({@link Resizes}), a finished or deleted one released; a decision is carried out
 * ({@link Decided}), otherwise the pod's containers are brought to their
 * pins. Before the first full sync pods are only booked: the full sync decides, in creation order. Runs on the loop
 * thread.
 */
public final class PodEvents implements PodFeed.Listener {

    private static final Logger LOG = LoggerFactory.getLogger(PodEvents.class);

    private final NodeBook node;
    private final PodBook pods;
    private final NodeAllocator allocator;
    private final Admissions admissions;
    private final Decisions decisions;
    private final Decided decided;
    private final PlanApplier pins;
    private final AgentStatus status;
    private final Resizes resizes;
    private final AgentMetrics metrics;

    public PodEvents(
            NodeBook node,
            PodBook pods,
            NodeAllocator allocator,
            Admissions admissions,
            Decisions decisions,
            Decided decided,
            PlanApplier pins,
            AgentStatus status,
            Resizes resizes,
            AgentMetrics metrics) {
        this.node = node;
        this.pods = pods;
        this.allocator = allocator;
        this.admissions = admissions;
        this.decisions = decisions;
        this.decided = decided;
        this.pins = pins;
        this.status = status;
        this.resizes = resizes;
        this.metrics = metrics;
    }

    @Override
    public void changed(PodRecord r) {
        String uid = r.ref().uid();
        Optional<PodRecord> was = pods.get(uid);
        pods.put(r);
        if (!node.synced() || was.filter(r::equals).isPresent()) {
            // Most updates of a running pod are the kubelet's status (conditions, times) which no record holds:
            // nothing to decide, pin or answer anew, and a pass over every container for each would be the agent's
            // main cost on a quiet node. Drift stays the reconcile tick's.
            return;
        }
        reconsider(r);
    }

    /**
     * The pods whose containers exist and which still wait for the kubelet's devices, asked again (the reconcile
     * tick's): such a pod may not change again, and a kubelet answer may have failed.
     */
    public void askWaitingAgain() {
        if (!node.synced()) {
            return;
        }
        for (String uid : pods.waitingPods()) {
            pods.get(uid).ifPresent(this::reconsider);
        }
    }

    /** Decides on a pod that changed: admits, refuses, releases or resizes it, then pins. */
    private void reconsider(PodRecord r) {
        long taken = System.nanoTime();
        String uid = r.ref().uid();
        CpuSet poolBefore = node.state().sharedPool();
        boolean changed = false;
        boolean resized = false;
        if (r.terminal()) {
            changed = release(uid);
        } else if (!node.state().pods().containsKey(uid) && !pods.refused(uid)) {
            if (r.pod().isPresent()) {
                changed = decide(admissions.admit(node.state(), r));
            } else {
                decisions.refuseUnreadable(r);
            }
        } else if (r.resizable()) {
            NodeState before = node.state();
            node.state(resizes.resize(before, r));
            changed = node.state() != before;
            resized = changed;
        }
        if (changed) {
            Decided.Steps steps = decided.carryOut(poolBefore);
            if (resized) {
                Duration took = Duration.ofNanos(System.nanoTime() - taken);
                metrics.podResizeWritten(took);
                LOG.info(
                        "pod {} resized in place: its new CPUs written {} ms after its update was taken ({})",
                        r.ref(),
                        String.format(Locale.ROOT, "%.3f", took.toNanos() / 1e6),
                        steps.describe());
            }
        } else {
            pins.pod(node.state(), uid);
            status.refreshSnapshot(node.state(), pods);
        }
    }

    @Override
    public void deleted(String uid) {
        pods.remove(uid);
        resizes.forget(uid);
        CpuSet poolBefore = node.state().sharedPool();
        if (node.synced() && release(uid)) {
            decided.carryOut(poolBefore);
        }
    }

    /** Carries out an admission decision; whether the pod is held now. */
    private boolean decide(AdmissionDecision decision) {
        node.state(decisions.carryOut(node.state(), decision));
        return decision instanceof AdmissionDecision.Admit;
    }

    private boolean release(String uid) {
        pods.ended(uid);
        if (!node.state().pods().containsKey(uid)) {
            return false;
        }
        node.state(allocator.remove(node.state(), uid));
        return true;
    }
}
