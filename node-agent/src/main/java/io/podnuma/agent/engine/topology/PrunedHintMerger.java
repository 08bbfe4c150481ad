package io.podnuma.agent.engine.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

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
 * <p>Otherwise the best not-preferred mask is searched depth first over the lists (shortest first; on
 * machines of up to 16 nodes each list's distinct masks in increasing numeric order, else in the provider's
 * order), carrying the AND so far. Three cuts keep it small:
 * a (list, AND-so-far) pair reached before is not expanded again, since it reaches the same results; a
 * branch is dropped when no subset of its AND can beat the best found (judged by node count against the
 * ranking's target and, without distances, by the smallest subset of the best's size); and a loop stops as
 * soon as a new best makes the rest of its branch hopeless.
 */
public final class PrunedHintMerger implements HintMerger {

    /** Masks of nodes below this id use a dense seen-set; wider machines use hashing. */
    private static final int DENSE_LIMIT_BITS = 16;

    @Override
    public TopologyHint merge(NumaMask defaultAffinity, List<? extends List<TopologyHint>> hintLists, MaskOrder order) {
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
        // Reading long lists dominates, so each list is read once for what both steps need: the preferred
        // masks, the target count and, on machines of up to 16 nodes, a bitmap of the masks for the search
        // (wider machines read the masks again only when the search runs). The compact form brings the first
        // two with it, and often the bitmap too.
        ListSummary[] summaries = new ListSummary[hintLists.size()];
        int width = 64 - Long.numberOfLeadingZeros(all);
        int denseWidth = width <= DENSE_LIMIT_BITS ? width : -1;
        int target = 0;
        for (int i = 0; i < summaries.length; i++) {
            List<TopologyHint> hints = hintLists.get(i);
            summaries[i] = hints instanceof TopologyHints compact
                    ? ListSummary.ofCompact(compact, all, denseWidth)
                    : ListSummary.ofList(hints, all, denseWidth);
            if (summaries[i].minCount != Integer.MAX_VALUE) {
                target = Math.max(target, summaries[i].minCount);
            }
        }
        long preferred = bestPreferred(all, summaries, order);
        if (preferred != 0L) {
            return TopologyHint.preferred(NumaMask.ofBits(preferred));
        }
        long best = bestNotPreferred(all, summaries, new HintRanking(target, order));
        return best == 0L
                ? TopologyHint.notPreferred(defaultAffinity)
                : TopologyHint.notPreferred(NumaMask.ofBits(best));
    }

    /** What the merge needs from one hint list, in either form. */
    private static final class ListSummary {
        boolean preferredAny;
        /** The preferred masks (not cut to the machine), sorted. */
        long[] preferred;
        /** On machines of up to 16 nodes: bit {@code w} for every non-empty word {@code w} (cut), else null. */
        long[] present;

        int minCount = Integer.MAX_VALUE;
        private List<TopologyHint> list;
        private TopologyHints compact;

        /**
         * @param denseWidth when not negative, also records the list's masks (cut to {@code all}) in a bitmap
         *     of {@code 2^denseWidth} bits, so the search needs no second pass over long lists
         */
        static ListSummary ofList(List<TopologyHint> hints, long all, int denseWidth) {
            ListSummary summary = new ListSummary();
            summary.list = hints;
            long[] preferred = new long[4];
            int preferredCount = 0;
            long[] present = denseWidth < 0 ? null : new long[bitmapWords(denseWidth)];
            for (TopologyHint hint : hints) {
                NumaMask mask = hint.numaMask();
                long word;
                if (mask == null) {
                    summary.preferredAny |= hint.preferred();
                    word = all;
                } else {
                    long raw = mask.bits();
                    word = raw & all;
                    summary.minCount = Math.min(summary.minCount, Long.bitCount(raw));
                    if (hint.preferred()) {
                        if (preferredCount == preferred.length) {
                            preferred = Arrays.copyOf(preferred, preferredCount * 2);
                        }
                        preferred[preferredCount++] = raw;
                    }
                }
                if (present != null && word != 0L) {
                    present[(int) (word >>> 6)] |= 1L << (word & 63);
                }
            }
            preferred = Arrays.copyOf(preferred, preferredCount);
            Arrays.sort(preferred);
            summary.preferred = preferred;
            summary.present = present;
            return summary;
        }

        /** Nothing per hint when the hints' own bitmap serves; else one scan of the mask words. */
        static ListSummary ofCompact(TopologyHints hints, long all, int denseWidth) {
            ListSummary summary = new ListSummary();
            summary.compact = hints;
            summary.preferredAny = hints.hasPreferredAny();
            summary.preferred = hints.preferredMasks();
            summary.minCount = hints.minCount();
            if (denseWidth < 0) {
                return summary;
            }
            long[] own = hints.maskBitmap();
            if (own != null && (hints.nodesUsed() & ~all) == 0L) {
                // every mask lies on the machine, so cutting changes none: only "any" adds a word, all nodes
                if (!hints.hasAny()) {
                    summary.present = own;
                    return summary;
                }
                long[] present = Arrays.copyOf(own, bitmapWords(denseWidth));
                present[(int) (all >>> 6)] |= 1L << (all & 63);
                summary.present = present;
                return summary;
            }
            long[] present = new long[bitmapWords(denseWidth)];
            // "any" is stored as all ones, so the cut makes it every node of the machine
            for (long mask : hints.masksForScan()) {
                long word = mask & all;
                if (word != 0L) {
                    present[(int) (word >>> 6)] |= 1L << (word & 63);
                }
            }
            summary.present = present;
            return summary;
        }

        boolean accepts(long raw) {
            return preferredAny || Arrays.binarySearch(preferred, raw) >= 0;
        }

        /**
         * The non-empty words cut to the machine ("any" is every node), in the provider's order, duplicates
         * kept: sorting long lists costs more than it saves, and the seen-sets of the search absorb duplicates.
         */
        long[] words(long all) {
            if (compact != null) {
                long[] masks = compact.masksForScan();
                boolean cutChangesNothing =
                        !compact.hasAny() && compact.minCount() > 0 && (compact.nodesUsed() & ~all) == 0L;
                return cutChangesNothing ? masks : nonEmptyWords(all, masks);
            }
            long[] words = new long[list.size()];
            int count = 0;
            for (TopologyHint hint : list) {
                long word = hint.numaMask() == null ? all : hint.numaMask().bits() & all;
                if (word != 0L) {
                    words[count++] = word;
                }
            }
            return count == words.length ? words : Arrays.copyOf(words, count);
        }

        private static long[] nonEmptyWords(long all, long[] masks) {
            long[] words = new long[masks.length];
            int count = 0;
            for (long mask : masks) {
                long word = mask & all;
                if (word != 0L) {
                    words[count++] = word;
                }
            }
            return count == words.length ? words : Arrays.copyOf(words, count);
        }
    }

    private static int bitmapWords(int width) {
        return Math.max(1, (1 << width) >>> 6);
    }

    /**
     * The best preferred merged mask, or 0. A combination is preferred only if all its hints are preferred
     * and their masks are equal, so the candidates are the preferred masks every list accepts (as itself
     * or through a preferred "any"), plus all nodes when every list has a preferred "any".
     */
    private static long bestPreferred(long all, ListSummary[] summaries, MaskOrder order) {
        ListSummary smallest = summaries[0];
        boolean everyListPreferredAny = true;
        for (ListSummary summary : summaries) {
            everyListPreferredAny &= summary.preferredAny;
            if (!summary.preferredAny
                    && (smallest.preferredAny || summary.preferred.length < smallest.preferred.length)) {
                smallest = summary;
            }
        }
        long best = 0L;
        if (everyListPreferredAny) {
            best = all;
        }
        // Candidates come from one list that has no preferred "any" (any such list must hold the mask);
        // if every list has one, from all lists.
        List<long[]> sources = smallest.preferredAny
                ? Arrays.stream(summaries).map(summary -> summary.preferred).toList()
                : List.of(smallest.preferred);
        for (long[] source : sources) {
            for (long raw : source) {
                long merged = raw & all;
                if (merged == 0L || (best != 0L && order.compareBits(merged, best) >= 0)) {
                    continue;
                }
                boolean acceptedByAll = true;
                for (ListSummary summary : summaries) {
                    if (!summary.accepts(raw)) {
                        acceptedByAll = false;
                        break;
                    }
                }
                if (acceptedByAll) {
                    best = merged;
                }
            }
        }
        return best;
    }

    private static long bestNotPreferred(long all, ListSummary[] summaries, HintRanking ranking) {
        List<Level> levels = new ArrayList<>(summaries.length);
        for (ListSummary summary : summaries) {
            Level level = summary.present != null ? Level.ofBitmap(summary.present) : Level.ofWords(summary.words(all));
            if (level.size() == 0) {
                return 0L; // every combination ANDs to nothing
            }
            levels.add(level);
        }
        levels.sort(Comparator.comparingInt(Level::size));
        Search search = new Search(levels.toArray(Level[]::new), ranking, all);
        search.visit(0, all);
        return search.best;
    }

    /** One list's masks for the search: a bitmap (small machines, increasing order) or an array. */
    private record Level(long[] bitmap, long[] words, int size) {

        static Level ofBitmap(long[] bitmap) {
            int size = 0;
            for (long bits : bitmap) {
                size += Long.bitCount(bits);
            }
            return new Level(bitmap, null, size);
        }

        static Level ofWords(long[] words) {
            return new Level(null, words, words.length);
        }
    }

    private static final class Search {
        private final Level[] levels;
        private final HintRanking ranking;
        private final SeenSet[] seen;
        private long best;

        Search(Level[] levels, HintRanking ranking, long all) {
            this.levels = levels;
            this.ranking = ranking;
            this.seen = new SeenSet[levels.length];
            int width = 64 - Long.numberOfLeadingZeros(all);
            for (int i = 1; i < levels.length; i++) {
                seen[i] = width <= DENSE_LIMIT_BITS ? new DenseSeenSet(width) : new HashedSeenSet();
            }
        }

        void visit(int level, long acc) {
            Level masks = levels[level];
            if (masks.bitmap() != null) {
                long[] bitmap = masks.bitmap();
                for (int index = 0; index < bitmap.length; index++) {
                    for (long rest = bitmap[index]; rest != 0L; rest &= rest - 1) {
                        if (!step(level, acc, ((long) index << 6) | Long.numberOfTrailingZeros(rest))) {
                            return;
                        }
                    }
                }
            } else {
                for (long word : masks.words()) {
                    if (!step(level, acc, word)) {
                        return;
                    }
                }
            }
        }

        /** Takes {@code word} at {@code level}; false when nothing left under {@code acc} can beat the best. */
        private boolean step(int level, long acc, long word) {
            long next = acc & word;
            if (next == 0L) {
                return true;
            }
            long before = best;
            if (level == levels.length - 1) {
                offer(next);
            } else if (mayImprove(next) && seen[level + 1].add(next)) {
                visit(level + 1, next);
            }
            return best == before || mayImprove(acc);
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
