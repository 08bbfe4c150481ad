package io.podnuma.agent.engine.topology;

/**
 * How two candidate NUMA masks of a merge compare when nothing else separates them: fewer nodes first;
 * with {@code prefer-closest-numa-nodes}, equal-size masks by the average distance between their nodes;
 * then the numerically smaller mask. This is the kubelet's {@code Narrowest}/{@code Closest} choice.
 */
public final class MaskOrder {

    private static final MaskOrder NARROWEST = new MaskOrder(null);

    private final NumaDistances distances;

    private MaskOrder(NumaDistances distances) {
        this.distances = distances;
    }

    public static MaskOrder narrowest() {
        return NARROWEST;
    }

    public static MaskOrder closest(NumaDistances distances) {
        if (distances == null) {
            throw new IllegalArgumentException(
                    "prefer-closest-numa-nodes needs the NUMA distance matrix, but none was given");
        }
        return new MaskOrder(distances);
    }

    public boolean usesDistances() {
        return distances != null;
    }

    /** Negative when {@code a} is the better mask, zero only for equal masks. */
    public int compare(NumaMask a, NumaMask b) {
        return compareBits(a.bits(), b.bits());
    }

    int compareBits(long a, long b) {
        if (a == b) {
            return 0;
        }
        int countA = Long.bitCount(a);
        int countB = Long.bitCount(b);
        if (countA != countB) {
            return countA < countB ? -1 : 1;
        }
        if (distances != null) {
            // Equal sizes: comparing pair sums is comparing the kubelet's averages, exactly.
            int byDistance = Long.compare(distances.pairSum(NumaMask.ofBits(a)), distances.pairSum(NumaMask.ofBits(b)));
            if (byDistance != 0) {
                return byDistance;
            }
        }
        return Long.compareUnsigned(a, b);
    }
}
