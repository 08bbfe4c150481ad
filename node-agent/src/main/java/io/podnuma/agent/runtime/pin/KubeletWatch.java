package io.podnuma.agent.runtime.pin;

import io.podnuma.agent.events.EventReason;
import io.podnuma.agent.events.EventType;
import io.podnuma.agent.kubelet.KubeletCheck;
import io.podnuma.agent.runtime.core.RuntimeEvents;
import io.podnuma.agent.runtime.status.AgentStatus;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks whether the kubelet runs a resource manager of its own: while it does the {@link WriteGate} writes nothing
 * ({@link WriteMode#KUBELET_CONFLICT}); the Node gets one Event when the conflict begins.
 */
public final class KubeletWatch {

    private static final Logger LOG = LoggerFactory.getLogger(KubeletWatch.class);

    private final Supplier<KubeletCheck> kubelet;
    private final WriteGate gate;
    private final AgentStatus status;
    private final RuntimeEvents events;

    public KubeletWatch(Supplier<KubeletCheck> kubelet, WriteGate gate, AgentStatus status, RuntimeEvents events) {
        this.kubelet = kubelet;
        this.gate = gate;
        this.status = status;
        this.events = events;
    }

    public void refresh() {
        KubeletCheck check = kubelet.get();
        status.kubelet(check);
        if (gate.kubelet(check.agentMayWrite() ? CpusetOwner.AGENT : CpusetOwner.KUBELET)) {
            events.onNode(EventType.WARNING, EventReason.KUBELET_CONFLICT, check.message());
            LOG.error("{}; podnuma writes no cpuset while this lasts", check.message());
        }
    }
}
