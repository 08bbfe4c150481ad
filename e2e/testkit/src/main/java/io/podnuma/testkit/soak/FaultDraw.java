package io.podnuma.testkit.soak;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.ToIntFunction;

/** Seeded weighted choice of the next fault among the kinds a driver offers. */
public final class FaultDraw {

    private final List<FaultKind> kinds;
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
    }

    public FaultKind next() {
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
