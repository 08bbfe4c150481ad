package io.podnuma.agent.podresources;

import io.podnuma.agent.engine.memory.MemoryResource;
import java.util.Objects;

/** Memory of one type that pods may pin on one NUMA node (capacity minus the system reservation). */
public record AllocatableMemory(int numaNode, MemoryResource resource, long bytes) {

    public AllocatableMemory {
        Objects.requireNonNull(resource, "resource");
        if (numaNode < 0) {
            throw new IllegalArgumentException("NUMA node id " + numaNode + " must be 0 or more");
        }
        if (bytes <= 0) {
            throw new IllegalArgumentException("allocatable " + resource + " on NUMA node " + numaNode + " is " + bytes
                    + " bytes: only positive amounts are reported");
        }
    }
}
