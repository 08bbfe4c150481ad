package io.podnuma.e2e.footprint;

import java.time.Duration;
import java.util.Optional;

/**
 * What one pod costs its node, as read in one run: its memory cgroup (usage, working set, anonymous and page-cache
 * bytes of the pod's tree), its JVM's resident set, its CPU over an idle window, and how long its container took from
 * start to Ready (absent for a pod that has no readiness to reach).
 *
 * @param jvm the JVM process's resident set
 * @param ready JVM process start to the first {@code /readyz} 200, 10 ms resolution (the kernel's clock ticks)
 * @param kubeletReady the container's {@code startedAt} to the pod's Ready condition, as the kubelet reports them
 *     (whole seconds)
 */
record Footprint(
        PodCgroup.MemoryReading memory,
        ProcFs.Resident jvm,
        double idleMillicores,
        Optional<Duration> ready,
        Optional<Duration> kubeletReady) {}
