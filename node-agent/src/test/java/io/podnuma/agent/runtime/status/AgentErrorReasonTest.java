package io.podnuma.agent.runtime.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.checkpoint.RejectReason;
import io.podnuma.agent.events.EventReason;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** The reasons of {@code lastError}: the wire texts stay, and a failure also told as an Event reads the same. */
class AgentErrorReasonTest {

    @ParameterizedTest
    @CsvSource({
        "INTERNAL_ERROR,                InternalError",
        "CHECKPOINT_WRITE_FAILED,       CheckpointWriteFailed",
        "CPUSET_WRITE_FAILED,           CpusetWriteFailed",
        "CHECKPOINT_UNREADABLE,         CheckpointUnreadable",
        "CHECKPOINT_TRUNCATED,          CheckpointTruncated",
        "CHECKPOINT_MALFORMED,          CheckpointMalformed",
        "CHECKPOINT_UNSUPPORTED_VERSION, CheckpointUnsupportedVersion",
        "CHECKPOINT_CHECKSUM_MISMATCH,  CheckpointChecksumMismatch",
        "CHECKPOINT_TOPOLOGY_MISMATCH,  CheckpointTopologyMismatch",
        "CHECKPOINT_BAD_STATE,          CheckpointBadState",
        "CHECKPOINT_INCONSISTENT_STATE, CheckpointInconsistentState"
    })
    void theWireTextOfEachReason(AgentErrorReason reason, String wire) {
        assertThat(reason.wire()).isEqualTo(wire);
    }

    @ParameterizedTest
    @EnumSource(RejectReason.class)
    void aCheckpointSetAsideGivesTheErrorTheEventsReason(RejectReason rejected) {
        assertThat(AgentErrorReason.of(rejected).wire())
                .isEqualTo(rejected.eventReason())
                .isEqualTo(EventReason.of(rejected).value());
    }

    @ParameterizedTest
    @EnumSource(AgentErrorReason.class)
    void everyReasonIsOneCamelCaseWord(AgentErrorReason reason) {
        assertThat(reason.wire()).matches("[A-Z][A-Za-z0-9]*");
    }
}
