package io.podnuma.agent.report.nrt;

/**
 * What the containers without exclusive resources ask for: they run on the node shared pool and their memory is not
 * pinned, so each NUMA node is charged a share of it.
 *
 * @param cpuMillis summed CPU requests of the containers on the node shared pool (not those on a pod's shared pool,
 *     whose CPUs are already held by the pod's bubble)
 * @param memoryBytes summed {@code memory} requests of the containers whose memory is not pinned
 */
public record SharedPoolRequests(long cpuMillis, long memoryBytes) {

    public static final SharedPoolRequests NONE = new SharedPoolRequests(0, 0);

    public SharedPoolRequests {
        if (cpuMillis < 0) {
            throw new IllegalArgumentException(
                    "shared-pool CPU requests must be 0 or more millicores, got " + cpuMillis);
        }
        if (memoryBytes < 0) {
            throw new IllegalArgumentException(
                    "shared-pool memory requests must be 0 or more bytes, got " + memoryBytes);
        }
    }
}
