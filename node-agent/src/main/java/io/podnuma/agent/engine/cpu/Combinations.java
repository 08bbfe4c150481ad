package io.podnuma.agent.engine.cpu;

import java.util.Arrays;

/**
 * Walks the k-element subsets of a list in lexicographic order of positions.
 *
 * <p>The kubelet builds each subset by appending to a shared prefix slice, so a subset it keeps as
 * "best" can be overwritten by the following subsets that share the same prefix (Go's {@code append}
 * writes into spare capacity). That changes which NUMA nodes the distribute option picks once four or
 * more nodes are combined. To give the kubelet's answers this walk reproduces Go's slice growth
 * (capacity 0, 1, 2, 4, 8, ... for small int slices) and hands out {@link Slice} views over shared
 * backing arrays; whoever keeps a view sees the same later writes the kubelet's code sees.
 */
final class Combinations {

    private Combinations() {}

    /** A Go-like slice: a length over a possibly shared backing array. */
    static final class Slice {
        private final int[] backing;
        private final int length;

        private Slice(int[] backing, int length) {
            this.backing = backing;
            this.length = length;
        }

        int length() {
            return length;
        }

        /** The elements as they read now. */
        int[] toArray() {
            return Arrays.copyOf(backing, length);
        }
    }

    /** Callback per subset; returns false to stop the walk (the kubelet's {@code Break}). */
    interface Visitor {
        boolean visit(Slice subset);
    }

    static void forEach(int[] n, int k, Visitor f) {
        if (k < 1) {
            return;
        }
        helper(n, k, 0, new Slice(new int[0], 0), f);
    }

    private static boolean helper(int[] n, int k, int start, Slice accum, Visitor f) {
        if (k == 0) {
            return f.visit(accum);
        }
        for (int i = start; i <= n.length - k; i++) {
            if (!helper(n, k - 1, i + 1, append(accum, n[i]), f)) {
                return false;
            }
        }
        return true;
    }

    private static Slice append(Slice s, int value) {
        int[] backing = s.backing;
        if (s.length == backing.length) {
            int newCap = Math.max(s.length + 1, backing.length * 2);
            backing = Arrays.copyOf(backing, newCap);
        }
        backing[s.length] = value;
        return new Slice(backing, s.length + 1);
    }
}
