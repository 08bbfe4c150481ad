package io.podnuma.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.podnuma.crds.v1alpha1.NumaNodeStateStatus;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.NumaResourcePolicyStatus;
import io.podnuma.crds.v1alpha1.nodestate.NodeTopology;
import io.podnuma.crds.v1alpha1.nodestate.NumaNode;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.crds.v1alpha1.policy.CpuManagerPolicy;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** What CEL cannot check: a reservation against the CPUs a node's agent reports. */
class ReservationCheckTest {

    /** Two NUMA nodes with CPUs 0-3 and 4-7, as an agent reports them. */
    private static final NodeTopology EIGHT_CPUS = new NodeTopology(
            8,
            2,
            1,
            List.of(),
            List.of(new NumaNode(0, "0-3", null, null, null), new NumaNode(1, "4-7", null, null, null)),
            List.of());

    private static CpuManager reserved(String cpus) {
        return new CpuManager(CpuManagerPolicy.STATIC, cpus, null, null, null);
    }

    private static CpuManager count(int cpus) {
        return new CpuManager(CpuManagerPolicy.STATIC, null, cpus, null, null);
    }

    @Test
    void cpusTheNodeHasAreFine() {
        assertThat(NodeAssessment.reservationMissing(reserved("0,4"), EIGHT_CPUS))
                .isEmpty();
        assertThat(NodeAssessment.reservationMissing(count(2), EIGHT_CPUS)).isEmpty();
    }

    @Test
    void cpusTheNodeLacksAreNamedWithWhatItHas() {
        Optional<NodeAssessment.Failure> f = NodeAssessment.reservationMissing(reserved("0,64,96-97"), EIGHT_CPUS);
        assertThat(f).hasValueSatisfying(failure -> {
            assertThat(failure.reason()).isEqualTo(FailureReason.RESERVED_CPUS_NOT_ON_NODE);
            assertThat(failure.message())
                    .isEqualTo("spec.cpuManager.reservedCpus \"0,64,96-97\" names CPUs 64,96-97 this node does not"
                            + " have (its CPUs: 0-7); list CPUs every selected node has, or use reservedCpuCount");
        });
    }

    @Test
    void aCountThatTakesEveryCpuIsNamed() {
        assertThat(NodeAssessment.reservationMissing(count(8), EIGHT_CPUS))
                .hasValueSatisfying(f -> assertThat(f.message())
                        .isEqualTo("spec.cpuManager.reservedCpuCount 8 reserves every CPU of this node (it has 8):"
                                + " nothing is left for pods"));
    }

    @Test
    void withoutAReportedTopologyNothingIsGuessed() {
        assertThat(NodeAssessment.reservationMissing(reserved("64"), null)).isEmpty();
        assertThat(NodeAssessment.reservationMissing(
                        reserved("64"), new NodeTopology(null, null, null, List.of(), List.of(), List.of())))
                .isEmpty();
    }

    @Test
    void theStatusListsTheNodeAndIsDegradedByIt() {
        NumaResourcePolicy policy = StatusFixtures.policy(null);
        policy.setSpec(
                new NumaResourcePolicySpec(new LabelSelector(), 0, null, reserved("0,64"), null, null, null, null));
        Map<String, NumaNodeStateStatus> states = StatusFixtures.healthy(List.of("ok"));
        states.put("small", StatusFixtures.State.healthy().topology(EIGHT_CPUS).build());

        NumaResourcePolicyStatus s = PolicyStatusAggregator.status(
                StatusFixtures.observe(
                        policy, StatusFixtures.governs("ok", "small"), Optional.of(StatusFixtures.complete(2)), states),
                StatusFixtures.NOW,
                StatusSettings.DEFAULTS);

        assertThat(s.failingNodes()).singleElement().satisfies(f -> {
            assertThat(f.node()).isEqualTo("small");
            assertThat(f.reason()).isEqualTo("ReservedCpusNotOnNode");
            assertThat(f.message()).contains("names CPUs 64 this node does not have");
        });
        assertThat(StatusFixtures.summary(s, PolicyConditionType.DEGRADED)).isEqualTo("True/ReservedCpusNotOnNode");
    }

    @Test
    void cpuListsRoundTrip() {
        assertThat(CpuIds.format(CpuIds.parse("0-2,8,10-11"))).isEqualTo("0-2,8,10-11");
        assertThat(CpuIds.parse("")).isEmpty();
        assertThat(CpuIds.format(new TreeSet<>(List.of(5)))).isEqualTo("5");
    }
}
