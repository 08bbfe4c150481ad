package io.podnuma.agent.engine.cpu;

import io.podnuma.agent.engine.cpuset.CpuSet;
import java.util.Collections;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The CPU manager's state as a value: the default (shared) set and the exclusive set of each owner
 * (a container key such as {@code <podUID>/<container>}, or a pod bubble).
 */
public record CpuState(CpuSet defaultSet, SortedMap<String, CpuSet> assignments) {

    public CpuState {
        assignments = Collections.unmodifiableSortedMap(new TreeMap<>(assignments));
    }

    public static CpuState of(CpuSet defaultSet) {
        return new CpuState(defaultSet, new TreeMap<>());
    }

    public Optional<CpuSet> assignment(String owner) {
        return Optional.ofNullable(assignments.get(owner));
    }

    /** Union of all exclusive sets. */
    public CpuSet exclusive() {
        CpuSet.Builder b = CpuSet.builder();
        assignments.values().forEach(b::addAll);
        return b.build();
    }

    CpuState withAssignment(String owner, CpuSet cpus, CpuSet newDefault) {
        TreeMap<String, CpuSet> m = new TreeMap<>(assignments);
        m.put(owner, cpus);
        return new CpuState(newDefault, m);
    }

    CpuState without(String owner, CpuSet newDefault) {
        TreeMap<String, CpuSet> m = new TreeMap<>(assignments);
        m.remove(owner);
        return new CpuState(newDefault, m);
    }
}
