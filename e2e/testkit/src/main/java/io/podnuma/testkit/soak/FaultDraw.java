package io.podnuma.testkit.soak;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.ToIntFunction;

/**
 * Seeded choice of the next fault among the kinds a driver offers: every kind once first, in an order shuffled by the
 * seed (so that a short run injects each kind it offers), then weighted draws.
 */
public final class FaultDraw {

    private final List<FaultKind> kinds;
    /** The kinds still to come before the weighted draws begin. */
    private final Deque<FaultKind> first = new ArrayDeque<>();

    private final Map<FaultKind, Integer> weights;
    private final int total;
    private final Random rnd;

    /** Draws among {@code kinds} by their own weights. */
    public FaultDraw(List<FaultKind> kinds, Random rnd) {
        this(kinds, k -> k.weight(), rnd);
    }

    /** Draws among {@code kinds} by {@code weight} (e.g. a short soak that favours the faults without a restart). */
    public FaultDraw(List<FaultKind> kinds, ToIntFunction<FaultKind> weight, Random rnd) {
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("no fault kinds to draw from");
        }
        this.kinds = List.copyOf(kinds);
        Map<FaultKind, Integer> w = new EnumMap<>(FaultKind.class);
        kinds.forEach(k -> w.put(k, weight.applyAsInt(k)));
        this.weights = w;
        this.total = w.values().stream().mapToInt(Integer::intValue).sum();
        this.rnd = rnd;
        List<FaultKind> shuffled = new ArrayList<>(this.kinds);
        Collections.shuffle(shuffled, rnd);
        first.addAll(shuffled);
    }

    /** Whether some kind has not been drawn yet: a short run goes on until it has been (past its deadline too). */
    public boolean covering() {
        return !first.isEmpty();
    }

    /**
     * Draws {@code k} again next, before the kinds still to come: a crash whose point the run did not reach (up to the
     * driver to bound how often).
     */
    public void again(FaultKind k) {
        first.addFirst(k);
    }

    public FaultKind next() {
        if (!first.isEmpty()) {
            return first.removeFirst();
        }
        int x = rnd.nextInt(total);
        for (FaultKind k : kinds) {
            x -= weights.get(k);
            if (x < 0) {
                return k;
            }
        }
        throw new AssertionError("weights sum to " + total);
    }
}
