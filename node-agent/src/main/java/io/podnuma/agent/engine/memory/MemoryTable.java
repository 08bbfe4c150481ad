package io.podnuma.agent.engine.memory;

/**
 * Accounting of one resource on one NUMA node, in bytes.
 *
 * @param total what the node has
 * @param systemReserved what the configuration keeps for the system
 * @param allocatable what pods may use: {@code total - systemReserved} (memory also minus huge pages)
 * @param reserved what allocations hold now
 * @param free {@code allocatable - reserved}
 */
public record MemoryTable(long total, long systemReserved, long allocatable, long reserved, long free) {

    public MemoryTable {
        if (reserved < 0 || free < 0 || allocatable < 0 || reserved + free != allocatable) {
            throw new IllegalStateException("inconsistent memory table: total=" + total + " systemReserved="
                    + systemReserved + " allocatable=" + allocatable + " reserved=" + reserved + " free=" + free);
        }
    }

    static MemoryTable initial(long total, long systemReserved, long allocatable) {
        return new MemoryTable(total, systemReserved, allocatable, 0, allocatable);
    }

    MemoryTable charge(long bytes) {
        return new MemoryTable(total, systemReserved, allocatable, reserved + bytes, free - bytes);
    }

    MemoryTable release(long bytes) {
        return new MemoryTable(total, systemReserved, allocatable, reserved - bytes, free + bytes);
    }
}
