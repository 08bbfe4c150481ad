package io.podnuma.agent.testing;

/**
 * Seeds of the randomised tests. Each run draws a new seed, so the tests keep exploring, and prints it, so a
 * failure can be replayed exactly with {@code -Dpodnuma.seed=N}.
 */
public final class Seeds {

    private Seeds() {}

    /** The seed of this run of {@code test}: {@code -Dpodnuma.seed} when set, else a new one; printed either way. */
    public static long announce(String test) {
        long seed = Long.getLong("podnuma.seed", System.nanoTime());
        System.out.println(test + " seed=" + seed + " (replay with -Dpodnuma.seed=" + seed + ")");
        return seed;
    }
}
