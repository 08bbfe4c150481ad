package io.podnuma.agent.kubelet;

/** What one kubelet file says about the agent's right to write cpusets. */
public enum FileVerdict {
    /** The file is not configured or not there: nothing is known from it. */
    NOT_CHECKED,
    /** Every manager the file names is {@code none}/{@code None}. */
    COMPATIBLE,
    /** The kubelet runs a CPU, memory or topology manager policy of its own. */
    CONFLICT,
    /** The file is there but cannot be read or understood, so the kubelet's policy is unknown. */
    UNREADABLE
}
