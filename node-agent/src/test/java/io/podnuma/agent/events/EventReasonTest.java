package io.podnuma.agent.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.checkpoint.RejectReason;
import io.podnuma.agent.engine.node.RejectionReason;
import io.podnuma.agent.engine.pod.PodRef;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventReasonTest {

    @Test
    void everyReasonTheAgentEmitsIsADistinctCamelCaseWordOfAClosedSet() {
        assertThat(EventReason.values())
                .extracting(EventReason::value)
                .doesNotHaveDuplicates()
                .allMatch(v -> v.matches("[A-Z][A-Za-z0-9]*") && v.length() <= EventReason.MAX_LENGTH)
                .containsExactlyInAnyOrder(
                        "ResourcesPinned",
                        "CpusetDriftRepaired",
                        "CpusetWriteFailed",
                        "CheckpointRejected",
                        "PodEvicted",
                        "EvictionBlocked",
                        "EvictionFailed",
                        "KubeletConflict",
                        "PolicyConflict",
                        "PolicyChanged",
                        "PodSpecUnreadable",
                        "TopologyAffinityError",
                        "SMTAlignmentError",
                        "EmptyPodSharedPoolError",
                        "UnexpectedAdmissionError",
                        "CheckpointUnreadable",
                        "CheckpointTruncated",
                        "CheckpointMalformed",
                        "CheckpointUnsupportedVersion",
                        "CheckpointChecksumMismatch",
                        "CheckpointTopologyMismatch",
                        "CheckpointBadState",
                        "CheckpointInconsistentState");
        assertThat(EventReason.values()).allMatch(r -> r.toString().equals(r.value()));
    }

    @Test
    void upstreamReasonsPassThroughUnchanged() {
        assertThat(EventReason.of(RejectionReason.TOPOLOGY_AFFINITY_ERROR).value())
                .isEqualTo("TopologyAffinityError");
        assertThat(EventReason.of(RejectionReason.SMT_ALIGNMENT_ERROR).value()).isEqualTo("SMTAlignmentError");
        assertThat(EventReason.of(RejectionReason.UNEXPECTED_ADMISSION_ERROR))
                .isEqualTo(EventReason.UNEXPECTED_ADMISSION_ERROR);
        for (RejectionReason r : RejectionReason.values()) {
            assertThat(EventReason.of(r).value()).as("%s", r).isEqualTo(r.wire());
        }
        for (RejectReason r : RejectReason.values()) {
            assertThat(EventReason.of(r).value()).as("%s", r).isEqualTo(r.eventReason());
        }
    }

    @Test
    void aReasonThatIsNotOneCamelCaseWordIsRefusedWithTheRule() {
        for (String bad : List.of("", "topologyAffinityError", "Topology Affinity", "Smt-Error", "X".repeat(129))) {
            assertThatThrownBy(() -> EventReason.Wire.checked(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("event reason '" + bad + "' must be one CamelCase word: an upper-case letter, then"
                            + " letters and digits, at most 128 characters");
        }
        assertThat(EventReason.Wire.checked("X".repeat(128))).hasSize(128);
    }

    @Test
    void refsValidateTheirFieldsAndNodeUidIsItsName() {
        assertThatThrownBy(() -> new PodTarget(new PodRef("uid", "ns", " ")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("name must not be blank");
        assertThatThrownBy(() -> new NodeRef(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("node name must not be blank");
        NodeRef node = new NodeRef("worker-3");
        assertThat(List.of(node.kind(), node.namespace(), node.uid(), node.eventNamespace()))
                .containsExactly("Node", "", "worker-3", "default");
        assertThat(new PodTarget(new PodRef("u", "tenant-a", "db-0")).eventNamespace())
                .isEqualTo("tenant-a");
        PodTarget pod = new PodTarget(new PodRef("u-7", "tenant-a", "db-0"));
        assertThat(List.of(pod.kind(), pod.namespace(), pod.name(), pod.uid()))
                .containsExactly("Pod", "tenant-a", "db-0", "u-7");
    }
}
