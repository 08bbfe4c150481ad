package io.podnuma.agent.engine.topology;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.LongConsumer;

/**
 * An immutable set of NUMA node ids in {@code 0..63}, stored as one 64-bit word.
 *
 * <p>The ordering helpers follow the kubelet's bitmask semantics: a mask is "narrower" when it has fewer
 * nodes, and among masks of equal size the one whose word is numerically smaller ("more lower-numbered
 * nodes") wins.
 */
public final class NumaMask implements Comparable<NumaMask> {

    /** Highest NUMA node id a mask can hold plus one. */
    public static final int MAX_NODES = 64;

    private static final NumaMask EMPTY = new NumaMask(0L);

    private final long bits;

    private NumaMask(long bits) {
        this.bits = bits;
    }

    public static NumaMask empty() {
        return EMPTY;
    }

    /** The mask whose bit {@code i} is set for every node {@code i} in the word. */
    public static NumaMask ofBits(long bits) {
        return bits == 0L ? EMPTY : new NumaMask(bits);
    }

    public static NumaMask of(int... nodes) {
        long bits = 0L;
        for (int node : nodes) {
            bits |= bit(node);
        }
        return ofBits(bits);
    }

    public static NumaMask of(Collection<Integer> nodes) {
        long bits = 0L;
        for (int node : nodes) {
            bits |= bit(node);
        }
        return ofBits(bits);
    }

    /** Nodes {@code 0..count-1}. */
    public static NumaMask firstNodes(int count) {
        if (count < 0 || count > MAX_NODES) {
            throw new IllegalArgumentException(
                    "NUMA node count " + count + " is out of range: allowed 0.." + MAX_NODES);
        }
        return ofBits(count == MAX_NODES ? -1L : (1L << count) - 1);
    }

    private static long bit(int node) {
        if (node < 0 || node >= MAX_NODES) {
            throw new IllegalArgumentException(
                    "NUMA node id " + node + " is out of range: allowed 0.." + (MAX_NODES - 1));
        }
        return 1L << node;
    }

    public long bits() {
        return bits;
    }

    public int count() {
        return Long.bitCount(bits);
    }

    public boolean isEmpty() {
        return bits == 0L;
    }

    public boolean contains(int node) {
        return node >= 0 && node < MAX_NODES && (bits & (1L << node)) != 0;
    }

    public boolean isSubsetOf(NumaMask other) {
        return (bits & ~other.bits) == 0L;
    }

    public NumaMask and(NumaMask other) {
        return ofBits(bits & other.bits);
    }

    public NumaMask or(NumaMask other) {
        return ofBits(bits | other.bits);
    }

    /** Fewer nodes, or as many nodes and numerically smaller (the kubelet's {@code IsNarrowerThan}). */
    public boolean isNarrowerThan(NumaMask other) {
        int count = count();
        int otherCount = other.count();
        if (count == otherCount) {
            return isLessThan(other);
        }
        return count < otherCount;
    }

    /** Numeric comparison of the words, unsigned so that node 63 ranks highest. */
    public boolean isLessThan(NumaMask other) {
        return Long.compareUnsigned(bits, other.bits) < 0;
    }

    /** The lowest node id; the mask must not be empty. */
    public int first() {
        if (bits == 0L) {
            throw new NoSuchElementException("empty NUMA mask has no first node");
        }
        return Long.numberOfTrailingZeros(bits);
    }

    /** Node ids in increasing order. */
    public List<Integer> nodes() {
        List<Integer> nodes = new ArrayList<>(count());
        for (long rest = bits; rest != 0L; rest &= rest - 1) {
            nodes.add(Long.numberOfTrailingZeros(rest));
        }
        return nodes;
    }

    public int[] toArray() {
        int[] nodes = new int[count()];
        int i = 0;
        for (long rest = bits; rest != 0L; rest &= rest - 1) {
            nodes[i++] = Long.numberOfTrailingZeros(rest);
        }
        return nodes;
    }

    /**
     * Calls {@code action} with the word of every non-empty subset of {@code set}, by increasing size and,
     * within a size, in lexicographic order of the node lists (the kubelet's {@code IterateBitMasks} order).
     */
    public static void forEachSubsetBySize(NumaMask set, LongConsumer action) {
        int[] nodes = set.toArray();
        int n = nodes.length;
        for (int size = 1; size <= n; size++) {
            int[] index = new int[size];
            for (int i = 0; i < size; i++) {
                index[i] = i;
            }
            while (true) {
                long word = 0L;
                for (int i = 0; i < size; i++) {
                    word |= 1L << nodes[index[i]];
                }
                action.accept(word);
                int pos = size - 1;
                while (pos >= 0 && index[pos] == n - size + pos) {
                    pos--;
                }
                if (pos < 0) {
                    break;
                }
                index[pos]++;
                for (int i = pos + 1; i < size; i++) {
                    index[i] = index[i - 1] + 1;
                }
            }
        }
    }

    /** Every non-empty subset of {@code set}, by increasing size (see {@link #forEachSubsetBySize}). */
    public static List<NumaMask> subsetsBySize(NumaMask set) {
        if (set.count() > 20) {
            throw new IllegalArgumentException("refusing to list the 2^" + set.count() + " subsets of " + set
                    + ": use forEachSubsetBySize for sets above 20 nodes");
        }
        List<NumaMask> masks = new ArrayList<>((1 << set.count()) - 1);
        forEachSubsetBySize(set, word -> masks.add(ofBits(word)));
        return masks;
    }

    /** Narrowest first, the order the kubelet's hint merge calls "best". */
    @Override
    public int compareTo(NumaMask other) {
        if (bits == other.bits) {
            return 0;
        }
        return isNarrowerThan(other) ? -1 : 1;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NumaMask other && other.bits == bits;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(bits);
    }

    /** Linux list syntax in braces, e.g. {@code {0-2,5}}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        int[] nodes = toArray();
        int i = 0;
        while (i < nodes.length) {
            int j = i;
            while (j + 1 < nodes.length && nodes[j + 1] == nodes[j] + 1) {
                j++;
            }
            if (sb.length() > 1) {
                sb.append(',');
            }
            sb.append(nodes[i]);
            if (j > i) {
                sb.append('-').append(nodes[j]);
            }
            i = j + 1;
        }
        return sb.append('}').toString();
    }
}
