package io.podnuma.agent.engine.memory;

/**
 * A memory resource the memory manager accounts: {@code memory}, or {@code hugepages-<size>} for one huge
 * page size.
 *
 * @param pageSizeBytes 0 for regular memory, else the huge page size
 */
public record MemoryResource(long pageSizeBytes) implements Comparable<MemoryResource> {

    public static final MemoryResource MEMORY = new MemoryResource(0);
    private static final String HUGEPAGES_PREFIX = "hugepages-";

    public MemoryResource {
        if (pageSizeBytes < 0) {
            throw new IllegalArgumentException("huge page size " + pageSizeBytes + " must be positive");
        }
    }

    public static MemoryResource hugepages(long pageSizeBytes) {
        if (pageSizeBytes <= 0) {
            throw new IllegalArgumentException("huge page size " + pageSizeBytes + " must be positive");
        }
        return new MemoryResource(pageSizeBytes);
    }

    /** Parses {@code memory} or {@code hugepages-<quantity>} (e.g. {@code hugepages-2Mi}, {@code hugepages-1Gi}). */
    public static MemoryResource parse(String name) {
        if ("memory".equals(name)) {
            return MEMORY;
        }
        if (name != null && name.startsWith(HUGEPAGES_PREFIX)) {
            long size;
            try {
                size = MemoryQuantity.parseBytes("huge page size", name.substring(HUGEPAGES_PREFIX.length()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("resource \"" + name + "\" has no valid huge page size ("
                        + e.getMessage() + "): allowed hugepages-<size> such as hugepages-2Mi or hugepages-1Gi");
            }
            if (size == 0) {
                throw new IllegalArgumentException("resource \"" + name + "\" has a zero huge page size");
            }
            return hugepages(size);
        }
        throw new IllegalArgumentException(
                "\"" + name
                        + "\" is not a memory resource: allowed memory and hugepages-<size> (e.g. hugepages-2Mi, hugepages-1Gi)");
    }

    public boolean isHugepages() {
        return pageSizeBytes > 0;
    }

    /** The Kubernetes resource name, e.g. {@code memory}, {@code hugepages-2Mi}. */
    public String resourceName() {
        return isHugepages() ? HUGEPAGES_PREFIX + MemoryQuantity.format(pageSizeBytes) : "memory";
    }

    /** Regular memory first, then huge pages by size. */
    @Override
    public int compareTo(MemoryResource other) {
        return Long.compare(pageSizeBytes, other.pageSizeBytes);
    }

    @Override
    public String toString() {
        return resourceName();
    }
}
