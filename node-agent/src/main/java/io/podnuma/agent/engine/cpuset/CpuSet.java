package io.podnuma.agent.engine.cpuset;

import java.util.Arrays;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

/**
 * An immutable set of non-negative CPU (or NUMA node, socket, core) ids.
 *
 * <p>A bitset inside, because the allocator intersects and counts sets on every step and those
 * operations must stay word-parallel. The text form is the Linux list syntax ({@code 0-3,8,10-11})
 * used by sysfs and cgroup {@code cpuset.cpus} files.
 */
public final class CpuSet implements Comparable<CpuSet> {

    /** Ids above this are refused: no machine has them, and a typo must not allocate gigabytes. */
    public static final int MAX_ID = 65_535;

    private static final long[] NO_WORDS = new long[0];
    private static final CpuSet EMPTY = new CpuSet(NO_WORDS);

    private final long[] words; // trimmed: the last word is non-zero, or the array is empty
    private final int size;

    private CpuSet(long[] words) {
        this.words = words;
        int count = 0;
        for (long w : words) {
            count += Long.bitCount(w);
        }
        this.size = count;
    }

    private static CpuSet ofTrimmed(long[] words) {
        int len = words.length;
        while (len > 0 && words[len - 1] == 0L) {
            len--;
        }
        if (len == 0) {
            return EMPTY;
        }
        return new CpuSet(len == words.length ? words : Arrays.copyOf(words, len));
    }

    public static CpuSet empty() {
        return EMPTY;
    }

    public static CpuSet of(int... ids) {
        if (ids.length == 0) {
            return EMPTY;
        }
        int max = 0;
        for (int id : ids) {
            checkId(id);
            max = Math.max(max, id);
        }
        long[] w = new long[(max >>> 6) + 1];
        for (int id : ids) {
            w[id >>> 6] |= 1L << id;
        }
        return ofTrimmed(w);
    }

    /**
     * A set from a bitmap: bit {@code i} of {@code words[i / 64]} stands for id {@code i}. The array
     * is copied.
     */
    public static CpuSet fromWords(long[] words) {
        if (words.length > (MAX_ID >>> 6) + 1) {
            throw new IllegalArgumentException("bitmap of " + words.length + " words exceeds the maximum id " + MAX_ID);
        }
        return ofTrimmed(words.clone());
    }

    public static CpuSet of(Iterable<Integer> ids) {
        Builder b = builder();
        for (int id : ids) {
            b.add(id);
        }
        return b.build();
    }

    /** The ids {@code from..toInclusive}; empty when {@code toInclusive < from}. */
    public static CpuSet range(int from, int toInclusive) {
        if (toInclusive < from) {
            return EMPTY;
        }
        checkId(from);
        checkId(toInclusive);
        long[] w = new long[(toInclusive >>> 6) + 1];
        setRange(w, from, toInclusive);
        return ofTrimmed(w);
    }

    private static void setRange(long[] w, int from, int toInclusive) {
        for (int i = from; i <= toInclusive; ) {
            int word = i >>> 6;
            int lastInWord = Math.min(toInclusive, (word << 6) + 63);
            int lo = i & 63;
            int hi = lastInWord & 63;
            long mask = (hi == 63 ? -1L : (1L << (hi + 1)) - 1) & (-1L << lo);
            w[word] |= mask;
            i = lastInWord + 1;
        }
    }

    private static void checkId(int id) {
        if (id < 0 || id > MAX_ID) {
            throw new IllegalArgumentException("CPU id " + id + " is out of range: allowed 0.." + MAX_ID);
        }
    }

    /**
     * Parses the Linux list syntax: comma-separated ids and inclusive ranges {@code a-b}; surrounding
     * whitespace (such as the newline at the end of a sysfs file) is ignored; the empty string is
     * the empty set.
     *
     * @throws IllegalArgumentException naming the offending token and what is allowed
     */
    public static CpuSet parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("CPU list is null: expected Linux list syntax such as \"0-3,8\"");
        }
        String s = text.strip();
        if (s.isEmpty()) {
            return EMPTY;
        }
        Builder b = builder();
        int tokenIndex = 0;
        for (String raw : s.split(",", -1)) {
            tokenIndex++;
            String token = raw.strip();
            if (token.isEmpty()) {
                throw badToken(text, token, tokenIndex, "an empty element (stray comma)");
            }
            int dash = token.indexOf('-');
            if (dash < 0) {
                b.add(parseId(text, token, token, tokenIndex));
            } else {
                String left = token.substring(0, dash).strip();
                String right = token.substring(dash + 1).strip();
                int from = parseId(text, token, left, tokenIndex);
                int to = parseId(text, token, right, tokenIndex);
                if (to < from) {
                    throw badToken(text, token, tokenIndex, "a range whose end " + to + " is below its start " + from);
                }
                b.addRange(from, to);
            }
        }
        return b.build();
    }

    private static int parseId(String text, String token, String number, int tokenIndex) {
        if (number.isEmpty() || number.length() > 6) {
            throw badToken(text, token, tokenIndex, "not an id or range of ids");
        }
        for (int i = 0; i < number.length(); i++) {
            if (number.charAt(i) < '0' || number.charAt(i) > '9') {
                throw badToken(text, token, tokenIndex, "not an id or range of ids");
            }
        }
        int id = Integer.parseInt(number);
        if (id > MAX_ID) {
            throw badToken(text, token, tokenIndex, "an id above the maximum " + MAX_ID);
        }
        return id;
    }

    private static IllegalArgumentException badToken(String text, String token, int index, String problem) {
        return new IllegalArgumentException("invalid CPU list \"" + text.strip() + "\": element " + index + " \""
                + token + "\" is " + problem + "; expected comma-separated ids and ranges such as \"0-3,8,10-11\"");
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public boolean contains(int id) {
        if (id < 0) {
            return false;
        }
        int word = id >>> 6;
        return word < words.length && (words[word] & (1L << id)) != 0;
    }

    public CpuSet union(CpuSet other) {
        if (other.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        long[] a = words.length >= other.words.length ? words : other.words;
        long[] b = a == words ? other.words : words;
        long[] r = a.clone();
        for (int i = 0; i < b.length; i++) {
            r[i] |= b[i];
        }
        return new CpuSet(r);
    }

    public CpuSet intersection(CpuSet other) {
        int len = Math.min(words.length, other.words.length);
        long[] r = new long[len];
        for (int i = 0; i < len; i++) {
            r[i] = words[i] & other.words[i];
        }
        return ofTrimmed(r);
    }

    public CpuSet difference(CpuSet other) {
        if (other.isEmpty() || isEmpty()) {
            return this;
        }
        long[] r = words.clone();
        int len = Math.min(words.length, other.words.length);
        for (int i = 0; i < len; i++) {
            r[i] &= ~other.words[i];
        }
        return ofTrimmed(r);
    }

    /** Size of the intersection, without building it. */
    public int intersectionSize(CpuSet other) {
        int len = Math.min(words.length, other.words.length);
        int count = 0;
        for (int i = 0; i < len; i++) {
            count += Long.bitCount(words[i] & other.words[i]);
        }
        return count;
    }

    public boolean intersects(CpuSet other) {
        int len = Math.min(words.length, other.words.length);
        for (int i = 0; i < len; i++) {
            if ((words[i] & other.words[i]) != 0) {
                return true;
            }
        }
        return false;
    }

    public boolean isSubsetOf(CpuSet other) {
        if (words.length > other.words.length) {
            return false;
        }
        for (int i = 0; i < words.length; i++) {
            if ((words[i] & ~other.words[i]) != 0) {
                return false;
            }
        }
        return true;
    }

    /** The lowest id; fails on the empty set. */
    public int first() {
        for (int i = 0; i < words.length; i++) {
            if (words[i] != 0) {
                return (i << 6) + Long.numberOfTrailingZeros(words[i]);
            }
        }
        throw new IllegalStateException("first() of an empty CpuSet");
    }

    /** The highest id; fails on the empty set. */
    public int last() {
        if (words.length == 0) {
            throw new IllegalStateException("last() of an empty CpuSet");
        }
        int i = words.length - 1;
        return (i << 6) + 63 - Long.numberOfLeadingZeros(words[i]);
    }

    /** The next id at or above {@code from}, or -1. */
    public int nextId(int from) {
        if (from < 0) {
            from = 0;
        }
        int i = from >>> 6;
        if (i >= words.length) {
            return -1;
        }
        long w = words[i] & (-1L << from);
        while (true) {
            if (w != 0) {
                return (i << 6) + Long.numberOfTrailingZeros(w);
            }
            if (++i == words.length) {
                return -1;
            }
            w = words[i];
        }
    }

    /** The ids in ascending order. */
    public int[] toArray() {
        int[] out = new int[size];
        int n = 0;
        for (int i = 0; i < words.length; i++) {
            long w = words[i];
            while (w != 0) {
                out[n++] = (i << 6) + Long.numberOfTrailingZeros(w);
                w &= w - 1;
            }
        }
        return out;
    }

    /** The lowest {@code n} ids (all of them when {@code n >= size()}). */
    public CpuSet lowest(int n) {
        if (n >= size) {
            return this;
        }
        Builder b = builder();
        for (int id = nextId(0), taken = 0; id >= 0 && taken < n; id = nextId(id + 1), taken++) {
            b.add(id);
        }
        return b.build();
    }

    public void forEach(IntConsumer action) {
        for (int i = 0; i < words.length; i++) {
            long w = words[i];
            while (w != 0) {
                action.accept((i << 6) + Long.numberOfTrailingZeros(w));
                w &= w - 1;
            }
        }
    }

    public IntStream stream() {
        return IntStream.of(toArray());
    }

    /** The Linux list syntax, ranges collapsed: {@code 0-3,8,10-11}; the empty set is {@code ""}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        int id = nextId(0);
        while (id >= 0) {
            int end = id;
            while (contains(end + 1)) {
                end++;
            }
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(id);
            if (end > id) {
                sb.append('-').append(end);
            }
            id = nextId(end + 1);
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CpuSet other && Arrays.equals(words, other.words);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(words);
    }

    /** Orders by the ascending id sequences, lexicographically (so {@code 0,5 < 1}). */
    @Override
    public int compareTo(CpuSet o) {
        int a = nextId(0);
        int b = o.nextId(0);
        while (a >= 0 && b >= 0) {
            if (a != b) {
                return Integer.compare(a, b);
            }
            a = nextId(a + 1);
            b = o.nextId(b + 1);
        }
        return Integer.compare(a >= 0 ? 1 : 0, b >= 0 ? 1 : 0);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Mutable accumulation of ids; {@link #build()} yields an immutable set. */
    public static final class Builder {
        private long[] w = new long[2];

        private Builder() {}

        private void ensure(int id) {
            int need = (id >>> 6) + 1;
            if (need > w.length) {
                w = Arrays.copyOf(w, Math.max(need, w.length * 2));
            }
        }

        public Builder add(int id) {
            checkId(id);
            ensure(id);
            w[id >>> 6] |= 1L << id;
            return this;
        }

        public Builder addRange(int from, int toInclusive) {
            if (toInclusive < from) {
                return this;
            }
            checkId(from);
            checkId(toInclusive);
            ensure(toInclusive);
            setRange(w, from, toInclusive);
            return this;
        }

        public Builder addAll(CpuSet set) {
            if (!set.isEmpty()) {
                ensure(set.last());
                for (int i = 0; i < set.words.length; i++) {
                    w[i] |= set.words[i];
                }
            }
            return this;
        }

        public CpuSet build() {
            return ofTrimmed(w.clone());
        }
    }
}
