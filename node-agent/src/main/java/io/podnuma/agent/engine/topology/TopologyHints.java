package io.podnuma.agent.engine.topology;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * One resource's hints in compact form: the masks in one {@code long[]}, which hints are preferred and which
 * stand for "any node" as bitsets over the positions. A provider that offers every fitting mask of a wide
 * machine (180k hints on 16 NUMA nodes) then costs three arrays instead of two objects per hint, and the merge
 * reads no hint object at all.
 *
 * <p>It is also a read-only {@code List<TopologyHint>} in the provider's order, so it goes wherever the list form
 * goes ({@link TopologyPolicy#admit}, the mergers, the rejection message); {@link #get} builds the hint it returns.
 * Immutable: the arrays are read only by this package's merge and never written after {@link Builder#build}.
 *
 * <p>What every merge needs and does not depend on the machine (the preferred masks, sorted; whether a preferred
 * "any" is present; the smallest mask size; the nodes used and, when they are all below 16, the set of distinct
 * masks as a bitmap of at most 8 KiB) is gathered once, while the hints are built.
 */
public final class TopologyHints extends AbstractList<TopologyHint> implements RandomAccess {

    private static final long[] NO_WORDS = new long[0];
    private static final int BITMAP_MAX_NODES = 16;
    private static final TopologyHints EMPTY = new Builder(0).build();

    /** The mask of each hint; all ones where the hint is "any", so that a cut to the machine gives every node. */
    private final long[] masks;

    private final long[] preferredAt;
    private final long[] anyAt;
    private final int size;
    private final long[] preferredMasks;
    private final boolean preferredAny;
    private final boolean hasAny;
    private final int minCount;
    private final long nodesUsed;
    private final long[] maskBitmap;

    private TopologyHints(Builder b, long[] masks, long[] preferredAt, long[] anyAt, long[] preferredMasks) {
        this.masks = masks;
        this.preferredAt = preferredAt;
        this.anyAt = anyAt;
        this.size = b.size;
        this.preferredMasks = preferredMasks;
        this.preferredAny = b.preferredAny;
        this.hasAny = anyAt.length > 0;
        this.minCount = b.minCount;
        this.nodesUsed = b.nodesUsed;
        this.maskBitmap = b.bitmap;
    }

    /** No hints: the resource cannot be placed anywhere (see {@link TopologyPolicy}'s conventions). */
    public static TopologyHints empty() {
        return EMPTY;
    }

    /**
     * The compact form of {@code hints}, in the same order; {@code hints} itself when it already is one.
     *
     * @throws NullPointerException when a hint is {@code null}
     */
    public static TopologyHints of(List<TopologyHint> hints) {
        if (hints instanceof TopologyHints compact) {
            return compact;
        }
        Builder builder = new Builder(hints.size());
        for (TopologyHint hint : hints) {
            Objects.requireNonNull(hint, "null hint in a hint list");
            if (hint.numaMask() == null) {
                builder.addAny(hint.preferred());
            } else {
                builder.add(hint.numaMask().bits(), hint.preferred());
            }
        }
        return builder.build();
    }

    public static Builder builder() {
        return new Builder(16);
    }

    /** @param expectedSize how many hints will be added (the arrays grow past it) */
    public static Builder builder(int expectedSize) {
        return new Builder(expectedSize);
    }

    @Override
    public TopologyHint get(int index) {
        Objects.checkIndex(index, size);
        boolean preferred = isSet(preferredAt, index);
        if (isSet(anyAt, index)) {
            return preferred ? TopologyHint.dontCare() : TopologyHint.cannotSatisfy();
        }
        return new TopologyHint(NumaMask.ofBits(masks[index]), preferred);
    }

    @Override
    public int size() {
        return size;
    }

    /** Element by element, as every list; between two compact forms without building a hint. */
    @Override
    public boolean equals(Object o) {
        if (o instanceof TopologyHints other) {
            return size == other.size
                    && Arrays.equals(masks, 0, size, other.masks, 0, size)
                    && Arrays.equals(preferredAt, other.preferredAt)
                    && Arrays.equals(anyAt, other.anyAt);
        }
        return super.equals(o);
    }

    @Override
    public int hashCode() {
        return super.hashCode();
    }

    /** Whether the hint at {@code index} is preferred. */
    boolean preferredAt(int index) {
        return isSet(preferredAt, index);
    }

    /** Whether the hint at {@code index} is "any node". */
    boolean anyAt(int index) {
        return isSet(anyAt, index);
    }

    /** The mask word at {@code index}; all ones for "any". */
    long maskAt(int index) {
        return masks[index];
    }

    /** The mask words, one per hint, all ones for "any". For the merge's scans: not to be modified. */
    long[] masksForScan() {
        return masks;
    }

    /** The preferred masks (not "any"), sorted by signed value, duplicates kept; not to be modified. */
    long[] preferredMasks() {
        return preferredMasks;
    }

    /** Whether some hint is "any node". */
    boolean hasAny() {
        return hasAny;
    }

    /** The union of the masks that are not "any". */
    long nodesUsed() {
        return nodesUsed;
    }

    /**
     * The set of non-empty masks that are not "any", one bit per mask word, when they all lie on nodes 0..15;
     * else {@code null}. Not to be modified.
     */
    long[] maskBitmap() {
        return maskBitmap;
    }

    /** Whether some hint is "any node" and preferred. */
    boolean hasPreferredAny() {
        return preferredAny;
    }

    /** The smallest node count of a mask that is not "any"; {@link Integer#MAX_VALUE} when there is none. */
    int minCount() {
        return minCount;
    }

    /** Whether a preferred hint (its mask, or a preferred "any") accepts the mask word {@code raw}. */
    boolean acceptsPreferred(long raw) {
        return preferredAny || Arrays.binarySearch(preferredMasks, raw) >= 0;
    }

    private static boolean isSet(long[] bits, int index) {
        int word = index >>> 6;
        return word < bits.length && (bits[word] & (1L << index)) != 0;
    }

    /**
     * Collects hints in order, and what the merge needs of them as they come, so that building costs one pass.
     * {@link #build} hands its arrays over; adding after it works on copies, so what was built never changes.
     */
    public static final class Builder {
        private long[] masks;
        private long[] preferredAt;
        private long[] anyAt = NO_WORDS;
        private int size;
        private long[] preferred = NO_WORDS;
        private int preferredCount;
        private boolean preferredAny;
        private int minCount = Integer.MAX_VALUE;
        private long nodesUsed;
        /** Bit {@code w} per non-empty mask word {@code w} while every mask lies on nodes 0..15, then null. */
        private long[] bitmap = new long[1];

        private boolean handedOver;

        private Builder(int expectedSize) {
            if (expectedSize < 0) {
                throw new IllegalArgumentException("expected hint count " + expectedSize + " is negative");
            }
            masks = new long[expectedSize];
            preferredAt = new long[words(expectedSize)];
        }

        /** A hint on the nodes of {@code mask}. */
        public Builder add(NumaMask mask, boolean preferred) {
            return add(
                    Objects.requireNonNull(mask, "mask (use addAny for \"any node\")")
                            .bits(),
                    preferred);
        }

        /** A hint on the nodes whose bits are set in {@code maskBits} (see {@link NumaMask#ofBits}). */
        public Builder add(long maskBits, boolean preferred) {
            int index = next();
            masks[index] = maskBits;
            nodesUsed |= maskBits;
            minCount = Math.min(minCount, Long.bitCount(maskBits));
            if (preferred) {
                preferredAt[index >>> 6] |= 1L << index;
                if (preferredCount == this.preferred.length) {
                    this.preferred = Arrays.copyOf(this.preferred, Math.max(8, preferredCount * 2));
                }
                this.preferred[preferredCount++] = maskBits;
            }
            if (bitmap != null && maskBits != 0L) {
                if ((maskBits >>> BITMAP_MAX_NODES) != 0L) {
                    bitmap = null;
                } else {
                    int word = (int) (maskBits >>> 6);
                    if (word >= bitmap.length) {
                        bitmap = Arrays.copyOf(bitmap, Math.max(word + 1, bitmap.length * 2));
                    }
                    bitmap[word] |= 1L << (maskBits & 63);
                }
            }
            return this;
        }

        /** An "any node" hint ({@code null} mask in the list form). */
        public Builder addAny(boolean preferred) {
            int index = next();
            masks[index] = -1L;
            if (anyAt.length <= index >>> 6) {
                anyAt = Arrays.copyOf(anyAt, preferredAt.length);
            }
            anyAt[index >>> 6] |= 1L << index;
            if (preferred) {
                preferredAt[index >>> 6] |= 1L << index;
                preferredAny = true;
            }
            return this;
        }

        public TopologyHints build() {
            int words = words(size);
            long[] sortedPreferred = Arrays.copyOf(preferred, preferredCount);
            Arrays.sort(sortedPreferred);
            handedOver = true;
            return new TopologyHints(
                    this,
                    masks.length == size ? masks : Arrays.copyOf(masks, size),
                    preferredAt.length == words ? preferredAt : Arrays.copyOf(preferredAt, words),
                    anyAt.length == 0 || anyAt.length == words ? anyAt : Arrays.copyOf(anyAt, words),
                    sortedPreferred);
        }

        private int next() {
            if (handedOver) {
                // what was built holds these arrays: go on with copies
                masks = masks.clone();
                preferredAt = preferredAt.clone();
                anyAt = anyAt.length == 0 ? NO_WORDS : anyAt.clone();
                bitmap = bitmap == null ? null : bitmap.clone();
                handedOver = false;
            }
            if (size == masks.length) {
                int capacity = Math.max(16, size * 2);
                masks = Arrays.copyOf(masks, capacity);
                preferredAt = Arrays.copyOf(preferredAt, words(capacity));
            }
            return size++;
        }

        private static int words(int bits) {
            return (bits + 63) >>> 6;
        }
    }
}
