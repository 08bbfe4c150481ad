package io.podnuma.testkit.soak;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A sampler's check of one {@link Snapshot} after another: {@link Invariants#check} with the window's state carried
 * from sample to sample, and without the losses of pods deleted since the records were listed (a pod the soak has
 * deleted is not lost). One per sampler thread.
 */
public final class SampleCheck {

    private final Duration window;
    private Map<String, Instant> offSince = new HashMap<>();

    public SampleCheck(Duration window) {
        this.window = window;
    }

    /** @param deletedUids the pods the soak has deleted so far */
    public List<Violation> check(Snapshot s, Set<String> deletedUids) {
        Invariants.Result r = Invariants.check(s, offSince, window);
        offSince = new HashMap<>(r.offSince());
        return r.violations().stream()
                .filter(v -> !v.subject().startsWith("pod ")
                        || !deletedUids.contains(v.subject().substring("pod ".length())))
                .toList();
    }
}
