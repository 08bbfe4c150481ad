package io.podnuma.agent.engine.topology;

import java.util.List;

/**
 * The kubelet's "which merged hint is best" as a total order.
 *
 * <p>Upstream folds the merged hints one by one with a pairwise rule. That rule is equivalent to ranking:
 * preferred before not preferred; preferred hints by {@link MaskOrder}; not-preferred hints first those
 * whose node count equals the target count {@code T}, then those below {@code T} (larger count first), then
 * those above {@code T} (smaller count first), ties by {@link MaskOrder}. {@code T} is the largest, over all
 * hint lists, of the smallest non-null mask size in the list: the node count the most demanding resource
 * needs. Being a total order, the best is independent of the order in which combinations are visited,
 * which is what lets a pruned search find the same answer as the exhaustive one.
 */
public final class HintRanking {

    private final int target;
    private final MaskOrder order;

    HintRanking(int target, MaskOrder order) {
        this.target = target;
        this.order = order;
    }

    public static HintRanking of(List<? extends List<TopologyHint>> hintLists, MaskOrder order) {
        return new HintRanking(targetCount(hintLists), order);
    }

    /** The kubelet's {@code maxOfMinAffinityCounts}. */
    public static int targetCount(List<? extends List<TopologyHint>> hintLists) {
        int target = 0;
        for (List<TopologyHint> hints : hintLists) {
            int min = Integer.MAX_VALUE;
            for (TopologyHint hint : hints) {
                if (hint.numaMask() != null) {
                    min = Math.min(min, hint.numaMask().count());
                }
            }
            if (min != Integer.MAX_VALUE) {
                target = Math.max(target, min);
            }
        }
        return target;
    }

    public int target() {
        return target;
    }

    public MaskOrder order() {
        return order;
    }

    /** 0 for the target count, then counts below it, then counts above it. */
    int sizeClass(int count) {
        if (count == target) {
            return 0;
        }
        return count < target ? 1 : 2;
    }

    /** Negative when the not-preferred mask {@code a} ranks before {@code b}. */
    int compareNotPreferred(long a, long b) {
        int countA = Long.bitCount(a);
        int countB = Long.bitCount(b);
        int classA = sizeClass(countA);
        int classB = sizeClass(countB);
        if (classA != classB) {
            return Integer.compare(classA, classB);
        }
        if (classA == 1 && countA != countB) {
            return countA > countB ? -1 : 1;
        }
        return order.compareBits(a, b);
    }

    /** Negative when {@code a} is the better merged hint; both masks must be non-null and non-empty. */
    public int compare(TopologyHint a, TopologyHint b) {
        if (a.preferred() != b.preferred()) {
            return a.preferred() ? -1 : 1;
        }
        long bitsA = a.numaMask().bits();
        long bitsB = b.numaMask().bits();
        return a.preferred() ? order.compareBits(bitsA, bitsB) : compareNotPreferred(bitsA, bitsB);
    }
}
