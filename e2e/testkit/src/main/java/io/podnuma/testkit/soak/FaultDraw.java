package io.podnuma.testkit.soak;

import java.util.List;
import java.util.Random;

/** Seeded weighted choice of the next fault among the kinds a driver offers. */
public final class FaultDraw {

    private final List<FaultKind> kinds;
    private final int total;
    private final Random rnd;

    public FaultDraw(List<FaultKind> kinds, Random rnd) {
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("no fault kinds to draw from");
        }
        this.kinds = List.copyOf(kinds);
        this.total = kinds.stream().mapToInt(FaultKind::weight).sum();
        this.rnd = rnd;
    }

    public FaultKind next() {
        int x = rnd.nextInt(total);
        for (FaultKind k : kinds) {
            x -= k.weight();
            if (x < 0) {
                return k;
            }
        }
        throw new AssertionError("weights sum to " + total);
    }
}
