package io.podnuma.agent.engine.topology;

import java.util.List;

/**
 * The reference merge: visits every combination of one hint per list, exactly as the kubelet does, and
 * folds the results with the kubelet's pairwise "replace the current best?" rule. Exponential in the
 * number of lists; used by tests to check {@link PrunedHintMerger}, never on the admission path.
 */
public final class ExhaustiveHintMerger implements HintMerger {

    @Override
    public TopologyHint merge(NumaMask defaultAffinity, List<? extends List<TopologyHint>> hintLists, MaskOrder order) {
        Fold fold = new Fold(HintRanking.targetCount(hintLists), order);
        visit(hintLists, 0, defaultAffinity.bits(), true, null, defaultAffinity, fold);
        return fold.best == null ? TopologyHint.notPreferred(defaultAffinity) : fold.best;
    }

    private static void visit(
            List<? extends List<TopologyHint>> lists,
            int index,
            long merged,
            boolean preferred,
            NumaMask firstMask,
            NumaMask defaultAffinity,
            Fold fold) {
        if (index == lists.size()) {
            fold.offer(new TopologyHint(NumaMask.ofBits(merged), preferred));
            return;
        }
        for (TopologyHint hint : lists.get(index)) {
            long nextMerged = merged;
            boolean nextPreferred = preferred && hint.preferred();
            NumaMask nextFirst = firstMask;
            if (hint.numaMask() != null) {
                nextMerged &= hint.numaMask().bits();
                if (firstMask == null) {
                    nextFirst = hint.numaMask();
                } else if (!firstMask.equals(hint.numaMask())) {
                    nextPreferred = false;
                }
            }
            visit(lists, index + 1, nextMerged, nextPreferred, nextFirst, defaultAffinity, fold);
        }
    }

    /** The kubelet's sequential comparison, kept literal so that it can check the ranking. */
    private static final class Fold {
        private final int target;
        private final MaskOrder order;
        private TopologyHint best;

        Fold(int target, MaskOrder order) {
            this.target = target;
            this.order = order;
        }

        void offer(TopologyHint candidate) {
            if (candidate.numaMask().count() == 0) {
                return;
            }
            if (best == null) {
                best = candidate;
                return;
            }
            if (!best.preferred() && candidate.preferred()) {
                best = candidate;
                return;
            }
            if (best.preferred() && !candidate.preferred()) {
                return;
            }
            if (best.preferred()) {
                best = fitter(best, candidate);
                return;
            }
            int current = best.numaMask().count();
            int count = candidate.numaMask().count();
            if (current > target) {
                best = fitter(best, candidate);
            } else if (current == target) {
                if (count == target) {
                    best = fitter(best, candidate);
                }
            } else if (count > target) {
                // keep the current best: moving above the target is worse than staying below it
            } else if (count == target) {
                best = candidate;
            } else if (count > current) {
                best = candidate;
            } else if (count == current) {
                best = fitter(best, candidate);
            }
        }

        private TopologyHint fitter(TopologyHint current, TopologyHint candidate) {
            if (candidate.numaMask().equals(current.numaMask())) {
                return current;
            }
            return order.compare(current.numaMask(), candidate.numaMask()) < 0 ? current : candidate;
        }
    }
}
