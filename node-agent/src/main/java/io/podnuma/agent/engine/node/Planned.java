package io.podnuma.agent.engine.node;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.state.PodAssignment;

/** A planner's answer for one pod: what the pod holds and the node shared pool after it. */
record Planned(PodAssignment pod, CpuSet sharedPool) {}
