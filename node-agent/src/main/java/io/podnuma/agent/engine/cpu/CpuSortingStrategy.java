package io.podnuma.agent.engine.cpu;

/** How single CPUs are ordered once whole elements are taken. */
public enum CpuSortingStrategy {
    /** Fill one core before the next (the default). */
    PACKED,
    /** Spread threads over distinct cores ({@code distribute-cpus-across-cores}); whole cores are not taken. */
    SPREAD
}
