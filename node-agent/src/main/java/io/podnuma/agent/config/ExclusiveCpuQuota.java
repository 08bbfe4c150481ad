package io.podnuma.agent.config;

import java.util.Locale;

/** What happens to the CFS quota of a container that holds exclusive CPUs. */
public enum ExclusiveCpuQuota {
    /** The quota stays as the kubelet set it (the kubelet's own behaviour). */
    KEEP,
    /**
     * The quota is turned off: the container owns its CPUs, so throttling it there only adds latency. Pods in the
     * shared pool keep theirs.
     */
    DISABLE;

    static ExclusiveCpuQuota parse(String value) {
        for (ExclusiveCpuQuota q : values()) {
            if (q.wireName().equals(value)) {
                return q;
            }
        }
        throw new IllegalArgumentException("allowed keep, disable");
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
