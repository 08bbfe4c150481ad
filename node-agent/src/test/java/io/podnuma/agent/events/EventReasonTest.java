package io.podnuma.agent.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Event;
import io.podnuma.agent.checkpoint.RejectReason;
import io.podnuma.agent.engine.node.RejectionReason;
import io.podnuma.agent.engine.pod.PodRef;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventReasonTest {

    /**
     * The reasons as Kubernetes Events carry them, in declaration order: alerts and {@code kubectl get events
     * --field-selector reason=...} match these exact strings, so a renamed constant must show up here.
     */
    private static final List<String> WIRE = List.of(
            "ResourcesPinned",
            "CpusetDriftRepaired",
            "CpusetWriteFailed",
            "CheckpointRejected",
            "PodEvicted",
            "EvictionBlocked",
            "EvictionFailed",
            "KubeletConflict",
            "PartitionsUnsupported",
            "PartitionRefused",
            "PolicyConflict",
            "PolicyChanged",
            "PodSpecUnreadable",
            "WaitingForDevices",
            "ResourcesResized",
            "ResizeInfeasible",
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

    @Test
    void everyReasonTheAgentEmitsIsADistinctCamelCaseWordOfAClosedSet() {
        assertThat(EventReason.values())
                .extracting(EventReason::value)
                .doesNotHaveDuplicates()
                .allMatch(v -> v.matches("[A-Z][A-Za-z0-9]*") && v.length() <= EventReason.MAX_LENGTH)
                .containsExactlyElementsOf(WIRE);
        // Logs and messages print the reason through toString; they must read the same as the Event.
        assertThat(EventReason.values()).extracting(Object::toString).containsExactlyElementsOf(WIRE);
    }

    @Test
    void theEventWrittenCarriesTheWireStringOfItsReason() throws InterruptedException {
        FakeEventApi api = new FakeEventApi();
        try (KubeEventRecorder recorder = KubeEventRecorder.start(
                api,
                "node-1",
                EventRecorderSettings.defaults(),
                InstantSource.fixed(Instant.parse("2026-01-01T00:00:00Z")))) {
            EventReason[] reasons = EventReason.values();
            // One pod per reason, so the per-object rate limit cannot drop any of them.
            for (int i = 0; i < reasons.length; i++) {
                recorder.warning(new PodTarget(new PodRef("uid-" + i, "ns", "pod-" + i)), reasons[i], "m");
            }
            assertThat(recorder.awaitIdle(Duration.ofSeconds(10))).isTrue();
        }
        assertThat(api.events()).extracting(Event::getReason).containsExactlyElementsOf(WIRE);
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
