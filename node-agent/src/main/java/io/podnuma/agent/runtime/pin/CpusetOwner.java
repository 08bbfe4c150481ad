package io.podnuma.agent.runtime.pin;

/** Who writes the containers' cpusets, as the kubelet check says. */
public enum CpusetOwner {
    /** No kubelet file shows (or may hide) a CPU, memory or topology manager policy: the agent writes. */
    AGENT,
    /** The kubelet manages them, or an unreadable file may mean it does: the agent writes nothing. */
    KUBELET
}
