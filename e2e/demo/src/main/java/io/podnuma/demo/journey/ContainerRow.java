package io.podnuma.demo.journey;

import io.podnuma.testkit.cpu.CpuList;

/**
 * One container of the demo's pods table: the CPUs and memory nodes it reports from inside ({@code Cpus_allowed_list},
 * {@code Mems_allowed_list}) and the pool its node's {@code NumaNodeState} gives it.
 */
public record ContainerRow(String pod, String container, CpuList cpus, String mems, String pool) {}
