package io.podnuma.agent.report.nrt;

import java.math.BigInteger;

/** Splits an amount over NUMA nodes in proportion to weights, in whole units, deterministically. */
final class Shares {

    private Shares() {}

    /**
     * Largest-remainder split: every part is {@code amount * weight / sum} rounded down, and the units left over go to
     * the largest remainders (the lower index first on a tie), so the parts add up to {@code amount} exactly. All
     * weights zero: nothing is split (all parts zero).
     */
    static long[] split(long amount, long[] weights) {
        long[] parts = new long[weights.length];
        BigInteger sum = BigInteger.ZERO;
        for (long w : weights) {
            if (w < 0) {
                throw new IllegalArgumentException("weights must be 0 or more, got " + w);
            }
            sum = sum.add(BigInteger.valueOf(w));
        }
        if (amount <= 0 || sum.signum() == 0) {
            return parts;
        }
        // amount * weight can exceed a long for memory (bytes x bytes), hence BigInteger.
        BigInteger total = BigInteger.valueOf(amount);
        BigInteger[] remainders = new BigInteger[weights.length];
        long given = 0;
        for (int i = 0; i < weights.length; i++) {
            BigInteger[] qr = total.multiply(BigInteger.valueOf(weights[i])).divideAndRemainder(sum);
            parts[i] = qr[0].longValueExact();
            remainders[i] = qr[1];
            given += parts[i];
        }
        for (long left = amount - given; left > 0; left--) {
            int best = -1;
            for (int i = 0; i < weights.length; i++) {
                if (weights[i] > 0 && (best < 0 || remainders[i].compareTo(remainders[best]) > 0)) {
                    best = i;
                }
            }
            parts[best]++;
            remainders[best] = BigInteger.valueOf(-1); // one extra unit per node at most
        }
        return parts;
    }
}
