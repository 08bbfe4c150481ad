package io.podnuma.agent.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.engine.pod.PodRef;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventReasonTest {

    static List<EventReason> constants() {
        return Arrays.stream(EventReason.class.getDeclaredFields())
                .filter(f -> Modifier.isStatic(f.getModifiers()) && f.getType() == EventReason.class)
                .map(EventReasonTest::read)
                .toList();
    }

    static EventReason read(Field f) {
        try {
            return (EventReason) f.get(null);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theAgentsReasonsAreDistinctCamelCaseWords() {
        assertThat(constants())
                .extracting(EventReason::value)
                .containsExactlyInAnyOrder(
                        "ResourcesPinned",
                        "CpusetDriftRepaired",
                        "CpusetWriteFailed",
                        "CheckpointRejected",
                        "PodEvicted",
                        "EvictionBlocked",
                        "EvictionFailed",
                        "KubeletConflict",
                        "PolicyConflict");
    }

    @Test
    void upstreamReasonsPassThroughUnchanged() {
        assertThat(EventReason.upstream("TopologyAffinityError").value()).isEqualTo("TopologyAffinityError");
        assertThat(EventReason.upstream("SMTAlignmentError").value()).isEqualTo("SMTAlignmentError");
        assertThat(EventReason.upstream("UnexpectedAdmissionError"))
                .isEqualTo(new EventReason("UnexpectedAdmissionError"));
    }

    @Test
    void aReasonThatIsNotOneCamelCaseWordIsRefusedWithTheRule() {
        for (String bad : List.of("", "topologyAffinityError", "Topology Affinity", "Smt-Error", "X".repeat(129))) {
            assertThatThrownBy(() -> EventReason.upstream(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("event reason '" + bad + "' must be one CamelCase word: an upper-case letter, then"
                            + " letters and digits, at most 128 characters");
        }
        assertThat(EventReason.upstream("X".repeat(128)).value()).hasSize(128);
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
