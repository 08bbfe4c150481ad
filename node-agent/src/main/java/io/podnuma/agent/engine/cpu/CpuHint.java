package io.podnuma.agent.engine.cpu;

import io.podnuma.agent.engine.cpuset.CpuSet;

/**
 * A NUMA placement the CPU manager can satisfy: the node ids, and whether it is among the narrowest
 * placements measured on capacity. Converted to the topology manager's hint type by an adapter.
 */
public record CpuHint(CpuSet numaNodes, boolean preferred) {}
