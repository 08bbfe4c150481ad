package io.podnuma.testkit.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.testkit.soak.LeaderInvariants.LeaderSample;
import io.podnuma.testkit.soak.LeaderInvariants.Release;
import io.podnuma.testkit.soak.LeaderInvariants.Renewal;
import io.podnuma.testkit.soak.LeaderInvariants.Run;
import io.podnuma.testkit.soak.LeaderInvariants.Tenure;
import io.podnuma.testkit.soak.LeaderInvariants.Write;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LeaderInvariantsTest {

    private static final Instant T0 = Instant.parse("2026-12-02T05:00:00Z");

    private static Instant at(long ms) {
        return T0.plusMillis(ms);
    }

    @Test
    void twoLeadersOrALeaderTheLeaseDoesNotNameAreBreaches() {
        assertThat(LeaderInvariants.breaches(new LeaderSample(List.of("a"), Optional.of("a"))))
                .isEmpty();
        assertThat(LeaderInvariants.breaches(new LeaderSample(List.of(), Optional.of("a"))))
                .isEmpty();
        assertThat(LeaderInvariants.breaches(new LeaderSample(List.of("b", "a"), Optional.of("a"))))
                .containsExactly("leader b while the Lease names a", "two leaders [a, b]");
        assertThat(LeaderInvariants.breaches(new LeaderSample(List.of("b"), Optional.of("a"))))
                .containsExactly("leader b while the Lease names a");
        assertThat(LeaderInvariants.breaches(new LeaderSample(List.of("b"), Optional.empty())))
                .as("the Lease could not be read: only what the replicas say counts")
                .isEmpty();
    }

    @Test
    void aBreachCountsWhenTwoSamplesInARowShowIt() {
        Set<String> first = LeaderInvariants.breaches(new LeaderSample(List.of("a", "b"), Optional.of("b")));
        assertThat(LeaderInvariants.confirmed(Set.of(), first)).isEmpty();
        assertThat(LeaderInvariants.confirmed(first, first))
                .extracting(Violation::kind)
                .containsExactlyInAnyOrder(ViolationKind.TWO_LEADERS, ViolationKind.LEADER_WITHOUT_LEASE);
        assertThat(LeaderInvariants.confirmed(first, Set.of())).isEmpty();
    }

    @Test
    void aWriteMustFallInATenureOfItsReplica() {
        List<Tenure> tenures = List.of(new Tenure("b", at(5_000)), new Tenure("a", at(1_000)));
        assertThat(LeaderInvariants.writesOutsideTenure(
                        tenures,
                        List.of(
                                new Write("a", at(1_000), "Event x"),
                                new Write("a", at(4_999), "Event y"),
                                new Write("b", at(9_000), "Event z"))))
                .isEmpty();
        assertThat(LeaderInvariants.writesOutsideTenure(
                        tenures,
                        List.of(
                                new Write("a", at(500), "Event early"),
                                new Write("a", at(5_001), "Event late"),
                                new Write("b", at(2_000), "Event standby"))))
                .extracting(Violation::detail)
                .containsExactly(
                        "Event early at 2026-12-02T05:00:00.500Z while the Lease was not yet held",
                        "Event late at 2026-12-02T05:00:05.001Z while the Lease was held by b since"
                                + " 2026-12-02T05:00:05Z",
                        "Event standby at 2026-12-02T05:00:02Z while the Lease was held by a since"
                                + " 2026-12-02T05:00:01Z");
    }

    @Test
    void aTakeoverMustComeRenewDeadlineAfterThePreviousHoldersLastRenewalUnlessItGaveTheLeaseUp() {
        Duration deadline = Duration.ofSeconds(3);
        List<Tenure> tenures = List.of(new Tenure("a", at(0)), new Tenure("b", at(9_000)), new Tenure("c", at(12_000)));
        List<Renewal> renewals = List.of(
                new Renewal("a", at(0)),
                new Renewal("a", at(2_500)),
                new Renewal("b", at(9_000)),
                new Renewal("b", at(10_000)),
                new Renewal("c", at(12_000)));

        assertThat(LeaderInvariants.takeoversBeforeTheFence(tenures, renewals, List.of(), deadline))
                .extracting(Violation::kind, Violation::subject, Violation::detail)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(
                        ViolationKind.EARLY_TAKEOVER,
                        "c",
                        "took the Lease at 2026-12-02T05:00:12Z, 2000 ms after b last renewed it (renewDeadline 3000"
                                + " ms) without giving it up"));
        assertThat(LeaderInvariants.takeoversBeforeTheFence(
                        tenures, renewals, List.of(new Release("b", at(10_500))), deadline))
                .as("b gave it up after its last renewal")
                .isEmpty();
        assertThat(LeaderInvariants.takeoversBeforeTheFence(
                        tenures, renewals, List.of(new Release("b", at(9_500))), deadline))
                .as("a release before b's last renewal was an earlier tenure's")
                .hasSize(1);
        assertThat(LeaderInvariants.takeoversBeforeTheFence(
                        List.of(new Tenure("a", at(0)), new Tenure("a", at(1_000))), renewals, List.of(), deadline))
                .as("the same holder again (its container restarted)")
                .isEmpty();
    }

    @Test
    void aRunThatReconciledMustHaveRenewedTheLeaseWhileItRan() {
        List<Renewal> renewals = List.of(new Renewal("a", at(2_000)), new Renewal("b", at(8_000)));
        assertThat(LeaderInvariants.reconcilesWithoutRenewal(
                        List.of(
                                new Run("a", at(1_000), at(3_000), 4),
                                new Run("b", at(0), null, 7),
                                new Run("c", at(0), null, 0)),
                        renewals,
                        at(9_000)))
                .isEmpty();
        assertThat(LeaderInvariants.reconcilesWithoutRenewal(
                        List.of(new Run("a", at(2_500), at(6_000), 1), new Run("c", at(0), null, 3)),
                        renewals,
                        at(9_000)))
                .extracting(Violation::subject)
                .containsExactly("a", "c");
    }
}
