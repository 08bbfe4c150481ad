package io.podnuma.testkit.soak;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The operator soak's invariants as pure functions: one leader at a time, a leader holds the Lease, no write without
 * the Lease, no takeover before the previous holder's fence. The soak's shell scrapes the replicas and reads the Lease and the Events; nothing here reads anything.
 */
public final class LeaderInvariants {

    private LeaderInvariants() {}

    /** A holder's tenure as the Lease says it: from its {@code acquireTime} until the next holder's. */
    public record Tenure(String holder, Instant acquired) {}

    /** A renewal seen on the Lease ({@code renewTime}, the holder's clock). */
    public record Renewal(String holder, Instant renewed) {}

    /** A holder gave the Lease up (a graceful stop): the Lease named nobody from {@code at}, its last renewTime. */
    public record Release(String holder, Instant at) {}

    /** A write a replica made, stamped by its own clock (an Event names the moment of its reconcile). */
    public record Write(String replica, Instant at, String what) {}

    /** One run of a replica's process and how many reconciles it started; {@code ended} null while it runs. */
    public record Run(String replica, Instant started, Instant ended, double reconciles) {}

    /** One sample: the replicas that say they lead ({@code podnuma_operator_leader} 1), then the Lease's holder. */
    public record LeaderSample(List<String> leaders, Optional<String> holder) {}

    /**
     * What one sample shows wrong, as keys that compare equal across samples: two replicas that lead, a leader the
     * Lease does not name.
     */
    public static Set<String> breaches(LeaderSample s) {
        Set<String> out = new TreeSet<>();
        List<String> leaders = s.leaders().stream().sorted().toList();
        if (leaders.size() > 1) {
            out.add("two leaders " + leaders);
        }
        s.holder()
                .ifPresent(h -> leaders.stream()
                        .filter(l -> !l.equals(h))
                        .forEach(l -> out.add("leader " + l + " while the Lease names " + h)));
        return out;
    }

    /**
     * The breaches of two samples in a row. The scrapes of one sample are milliseconds apart, and a leader that stops
     * says 0 before it gives the Lease up, so only a handover between two scrapes of one sample could show a breach
     * once; a real one lasts (a Lease is held for seconds).
     */
    public static List<Violation> confirmed(Set<String> previous, Set<String> now) {
        List<Violation> out = new ArrayList<>();
        for (String b : now) {
            if (previous.contains(b)) {
                out.add(new Violation(
                        b.startsWith("two") ? ViolationKind.TWO_LEADERS : ViolationKind.LEADER_WITHOUT_LEASE,
                        b,
                        "seen in two samples in a row"));
            }
        }
        return out;
    }

    /** Each write falls in a tenure of its replica: after its acquisition, before the next holder's. */
    public static List<Violation> writesOutsideTenure(Collection<Tenure> tenures, Collection<Write> writes) {
        List<Tenure> order =
                tenures.stream().sorted(Comparator.comparing(Tenure::acquired)).toList();
        List<Violation> out = new ArrayList<>();
        for (Write w : writes) {
            Tenure during = null;
            for (Tenure t : order) {
                if (!t.acquired().isAfter(w.at())) {
                    during = t;
                }
            }
            if (during == null || !during.holder().equals(w.replica())) {
                out.add(new Violation(
                        ViolationKind.WRITE_WITHOUT_LEASE,
                        w.replica(),
                        w.what() + " at " + w.at() + " while the Lease was "
                                + (during == null
                                        ? "not yet held"
                                        : "held by " + during.holder() + " since " + during.acquired())));
            }
        }
        return out;
    }

    /**
     * No takeover while the previous holder may still lead. A holder leads until {@code renewDeadline} after its last
     * renewal (its fence), so another replica that takes the Lease sooner, without a release in between, could lead at
     * the same time. The Lease's history says so however briefly the overlap lasted, where the samples of the
     * replicas' gauges may fall on either side of it. The times must be real ones (each holder's clock offset taken
     * off): a replica's stamps are its clock's. A renewal the watch missed only makes a gap look longer.
     */
    public static List<Violation> takeoversBeforeTheFence(
            Collection<Tenure> tenures,
            Collection<Renewal> renewals,
            Collection<Release> releases,
            Duration renewDeadline) {
        List<Tenure> order =
                tenures.stream().sorted(Comparator.comparing(Tenure::acquired)).toList();
        List<Violation> out = new ArrayList<>();
        for (int i = 1; i < order.size(); i++) {
            Tenure prev = order.get(i - 1);
            Tenure next = order.get(i);
            if (prev.holder().equals(next.holder())) {
                continue;
            }
            Optional<Instant> last = renewals.stream()
                    .filter(r ->
                            r.holder().equals(prev.holder()) && !r.renewed().isAfter(next.acquired()))
                    .map(Renewal::renewed)
                    .max(Comparator.naturalOrder());
            if (last.isEmpty()) {
                continue;
            }
            boolean released = releases.stream()
                    .anyMatch(r -> r.holder().equals(prev.holder())
                            && !r.at().isBefore(last.get())
                            && !r.at().isAfter(next.acquired()));
            Duration gap = Duration.between(last.get(), next.acquired());
            if (!released && gap.compareTo(renewDeadline) < 0) {
                out.add(new Violation(
                        ViolationKind.EARLY_TAKEOVER,
                        next.holder(),
                        "took the Lease at " + next.acquired() + ", " + gap.toMillis() + " ms after "
                                + prev.holder() + " last renewed it (renewDeadline " + renewDeadline.toMillis()
                                + " ms) without giving it up"));
            }
        }
        return out;
    }

    /** A run that reconciled renewed the Lease while it ran (a leader renews every retry period). */
    public static List<Violation> reconcilesWithoutRenewal(
            Collection<Run> runs, Collection<Renewal> renewals, Instant now) {
        List<Violation> out = new ArrayList<>();
        for (Run r : runs) {
            if (r.reconciles() == 0) {
                continue;
            }
            Instant end = r.ended() == null ? now : r.ended();
            boolean renewed = renewals.stream()
                    .anyMatch(n -> n.holder().equals(r.replica())
                            && !n.renewed().isBefore(r.started())
                            && !n.renewed().isAfter(end));
            if (!renewed) {
                out.add(new Violation(
                        ViolationKind.WRITE_WITHOUT_LEASE,
                        r.replica(),
                        "ran from " + r.started() + " to " + end + ", started " + (long) r.reconciles()
                                + " reconciles and never renewed the Lease"));
            }
        }
        return out;
    }
}
