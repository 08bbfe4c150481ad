package io.podnuma.demo.pinning;

import io.podnuma.testkit.cpu.ProcessAffinity;

/**
 * One container of the demo: its pod, its QoS class, what podnuma decided, and what the kernel lets its real process
 * use.
 */
public record PinnedProcess(
        String pod, String container, String qos, Decision decision, long pid, ProcessAffinity affinity) {}
