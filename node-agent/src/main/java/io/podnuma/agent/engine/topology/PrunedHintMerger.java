package io.podnuma.agent.engine.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The admission-path merge: the same answer as {@link ExhaustiveHintMerger} without visiting every
 * combination.
 *
 * <p>Two facts make that possible. First, {@link HintRanking} is a total order, so only the set of reachable
 * merged hints matters, not the visiting order. Second, a merged hint is preferred only when every list
 * holds a preferred hint with one common mask (or a preferred "any" hint): the preferred candidates are
 * therefore just the preferred masks that every list accepts, found with one set lookup per list. When a
 * preferred candidate exists it beats every not-preferred one and the merge is done.
 *
 * <p>Otherwise the best not-preferred mask is searched depth first over the lists (smallest list first),
 * carrying the AND so far. Two cuts keep it small: a (list, AND-so-far) pair reached before is not expanded
 * again, since it reaches the same results; and a branch is dropped when no subset of its AND can beat the
 * best found, judged by node count against the ranking's target.
 */
public final class PrunedHintMerger implements HintMerger {

    /** Masks of nodes below this id use a dense seen-set; wider machines use hashing. */
    private static final int DENSE_LIMIT_BITS = 16;

    @Override
    public TopologyHint merge(NumaMask defaultAffinity, List<List<TopologyHint>> hintLists, MaskOrder order) {
        long all = defaultAffinity.bits();
        if (hintLists.isEmpty()) {
            // The single, empty combination: nothing constrains it and nothing is not preferred.
            return all == 0L ? TopologyHint.notPreferred(defaultAffinity) : TopologyHint.preferred(defaultAffinity);
        }
        for (List<TopologyHint> hints : hintLists) {
            if (hints.isEmpty()) {
                return TopologyHint.notPreferred(defaultAffinity);
            }
        }
        TopologyHint preferred = bestPreferred(all, hintLists, order);
        if (preferred != null) {
            return preferred;
        }
        long best = bestNotPreferred(all, hintLists, HintRanking.of(hintLists, order));
        return best == 0L
                ? TopologyHint.notPreferred(defaultAffinity)
                : TopologyHint.notPreferred(NumaMask.ofBits(best));
    }

    private static TopologyHint bestPreferred(long all, List<List<TopologyHint>> hintLists, MaskOrder order) {
        int lists = hintLists.size();
        boolean[] preferredAny = new boolean[lists];
        boolean everyListPreferredAny = true;
        // mask bits -> number of lists that hold it as a preferred hint (counted once per list)
        Map<Long, int[]> acceptedBy = new HashMap<>();
        int listsWithoutAny = 0;
        for (int i = 0; i < lists; i++) {
            for (TopologyHint hint : hintLists.get(i)) {
                if (!hint.preferred()) {
                    continue;
                }
                if (hint.numaMask() == null) {
                    preferredAny[i] = true;
                    continue;
                }
                int[] seen = acceptedBy.computeIfAbsent(hint.numaMask().bits(), k -> new int[] {-1, 0});
                if (seen[0] != i) {
                    seen[0] = i;
                    seen[1]++;
                }
            }
            if (!preferredAny[i]) {
                everyListPreferredAny = false;
                listsWithoutAny++;
            }
        }
        long best = 0L;
        boolean found = false;
        for (Map.Entry<Long, int[]> entry : acceptedBy.entrySet()) {
            long raw = entry.getKey();
            // Accepted by every list: either it holds the mask as preferred, or it holds a preferred "any".
            if (!acceptedByAll(raw, hintLists, preferredAny, entry.getValue()[1], listsWithoutAny)) {
                continue;
            }
            long merged = raw & all;
            if (merged != 0L && (!found || order.compareBits(merged, best) < 0)) {
                best = merged;
                found = true;
            }
        }
        if (everyListPreferredAny && all != 0L && (!found || order.compareBits(all, best) < 0)) {
            best = all;
            found = true;
        }
        return found ? TopologyHint.preferred(NumaMask.ofBits(best)) : null;
    }

    private static boolean acceptedByAll(
            long raw, List<List<TopologyHint>> hintLists, boolean[] preferredAny, int holders, int listsWithoutAny) {
        if (holders == hintLists.size()) {
            return true;
        }
        // Quick reject: every list lacking a preferred "any" must hold the mask itself.
        if (holders < listsWithoutAny) {
            return false;
        }
        for (int i = 0; i < hintLists.size(); i++) {
            if (!preferredAny[i] && !holdsPreferred(hintLists.get(i), raw)) {
                return false;
            }
        }
        return true;
    }

    private static boolean holdsPreferred(List<TopologyHint> hints, long raw) {
        for (TopologyHint hint : hints) {
            if (hint.preferred() && hint.numaMask() != null && hint.numaMask().bits() == raw) {
                return true;
            }
        }
        return false;
    }

    private static long bestNotPreferred(long all, List<List<TopologyHint>> hintLists, HintRanking ranking) {
        List<long[]> levels = new ArrayList<>(hintLists.size());
        int width = 64 - Long.numberOfLeadingZeros(all);
        for (List<TopologyHint> hints : hintLists) {
            long[] words = width <= DENSE_LIMIT_BITS
                    ? distinctNonEmptyWordsDense(all, width, hints)
                    : distinctNonEmptyWords(all, hints);
            if (words.length == 0) {
                return 0L; // every combination ANDs to nothing
            }
            levels.add(words);
        }
        levels.sort(Comparator.comparingInt(words -> words.length));
        Search search = new Search(levels.toArray(long[][]::new), ranking, all);
        search.visit(0, all);
        return search.best;
    }

    /** Distinct non-empty words in increasing order, through a bitmap instead of a sort. */
    private static long[] distinctNonEmptyWordsDense(long all, int width, List<TopologyHint> hints) {
        long[] present = new long[Math.max(1, (1 << width) >>> 6)];
        int distinct = 0;
        for (TopologyHint hint : hints) {
            long word = hint.numaMask() == null ? all : hint.numaMask().bits() & all;
            if (word == 0L) {
                continue;
            }
            int index = (int) (word >>> 6);
            long bit = 1L << (word & 63);
            if ((present[index] & bit) == 0) {
                present[index] |= bit;
                distinct++;
            }
        }
        long[] words = new long[distinct];
        int n = 0;
        for (int index = 0; index < present.length; index++) {
            for (long rest = present[index]; rest != 0L; rest &= rest - 1) {
                words[n++] = ((long) index << 6) | Long.numberOfTrailingZeros(rest);
            }
        }
        return words;
    }

    private static long[] distinctNonEmptyWords(long all, List<TopologyHint> hints) {
        long[] words = new long[hints.size()];
        int n = 0;
        for (TopologyHint hint : hints) {
            long word = hint.numaMask() == null ? all : hint.numaMask().bits() & all;
            if (word != 0L) {
                words[n++] = word;
            }
        }
        words = Arrays.copyOf(words, n);
        Arrays.sort(words);
        int distinct = 0;
        for (int i = 0; i < n; i++) {
            if (i == 0 || words[i] != words[i - 1]) {
                words[distinct++] = words[i];
            }
        }
        return Arrays.copyOf(words, distinct);
    }

    private static final class Search {
        private final long[][] levels;
        private final HintRanking ranking;
        private final SeenSet[] seen;
        private long best;

        Search(long[][] levels, HintRanking ranking, long all) {
            this.levels = levels;
            this.ranking = ranking;
            this.seen = new SeenSet[levels.length];
            boolean dense = 64 - Long.numberOfLeadingZeros(all) <= DENSE_LIMIT_BITS;
            for (int i = 1; i < levels.length; i++) {
                seen[i] = dense ? new DenseSeenSet(64 - Long.numberOfLeadingZeros(all)) : new HashedSeenSet();
            }
        }

        void visit(int level, long acc) {
            long[] words = levels[level];
            boolean last = level == levels.length - 1;
            for (long word : words) {
                long next = acc & word;
                if (next == 0L) {
                    continue;
                }
                if (last) {
                    offer(next);
                } else if (mayImprove(next) && seen[level + 1].add(next)) {
                    visit(level + 1, next);
                }
            }
        }

        private void offer(long merged) {
            if (best == 0L || ranking.compareNotPreferred(merged, best) < 0) {
                best = merged;
            }
        }

        /** Whether some non-empty subset of {@code acc} can rank before the best found so far. */
        private boolean mayImprove(long acc) {
            if (best == 0L) {
                return true;
            }
            int target = ranking.target();
            int bestCount = Long.bitCount(best);
            int available = Long.bitCount(acc);
            if (bestCount > target) {
                return true; // any result at or below the target would win, and those are always possible
            }
            if (available > bestCount) {
                if (bestCount < target || ranking.order().usesDistances()) {
                    return true;
                }
                // At the target only a better tie-break helps; the numerically smallest subset of that
                // size is acc's lowest bits.
                return Long.compareUnsigned(lowestBits(acc, bestCount), best) < 0;
            }
            // Only acc itself reaches bestCount nodes; smaller subsets rank lower.
            return available == bestCount && ranking.compareNotPreferred(acc, best) < 0;
        }
    }

    private static long lowestBits(long word, int count) {
        long result = 0L;
        long rest = word;
        for (int i = 0; i < count; i++) {
            long low = rest & -rest;
            result |= low;
            rest ^= low;
        }
        return result;
    }

    private interface SeenSet {
        /** Adds the word; false if it was already there. */
        boolean add(long word);
    }

    private static final class DenseSeenSet implements SeenSet {
        private final long[] words;

        DenseSeenSet(int bits) {
            words = new long[Math.max(1, (1 << bits) >>> 6)];
        }

        @Override
        public boolean add(long word) {
            int index = (int) (word >>> 6);
            long bit = 1L << (word & 63);
            if ((words[index] & bit) != 0) {
                return false;
            }
            words[index] |= bit;
            return true;
        }
    }

    /** Open addressing on raw longs: the search may insert millions of words on wide machines. */
    private static final class HashedSeenSet implements SeenSet {
        private long[] table = new long[256];
        private boolean hasZero;
        private int size;

        @Override
        public boolean add(long word) {
            if (word == 0L) {
                if (hasZero) {
                    return false;
                }
                hasZero = true;
                return true;
            }
            if ((size + 1) * 2 > table.length) {
                grow();
            }
            if (!insert(table, word)) {
                return false;
            }
            size++;
            return true;
        }

        private static boolean insert(long[] table, long word) {
            int mask = table.length - 1;
            int slot = (int) mix(word) & mask;
            while (table[slot] != 0L) {
                if (table[slot] == word) {
                    return false;
                }
                slot = (slot + 1) & mask;
            }
            table[slot] = word;
            return true;
        }

        private void grow() {
            long[] bigger = new long[table.length * 2];
            for (long word : table) {
                if (word != 0L) {
                    insert(bigger, word);
                }
            }
            table = bigger;
        }

        private static long mix(long word) {
            long h = word * 0x9E3779B97F4A7C15L;
            return h ^ (h >>> 32);
        }
    }
}
