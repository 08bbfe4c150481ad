package io.podnuma.agent.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** The conditions' wire texts: what tools and alerts match on, so they may not change. */
class ConditionReasonTest {

    static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    @ParameterizedTest
    @CsvSource({
        "SYNCED,                  Ready,           True,    Synced",
        "POLICY_CONFLICT,         Degraded,        True,    PolicyConflict",
        "AS_EXPECTED,             Degraded,        False,   AsExpected",
        "DRIFT_REPAIRED,          Drift,           True,    DriftRepaired",
        "NO_DRIFT,                Drift,           False,   NoDrift",
        "KUBELET_MANAGER_ACTIVE,  KubeletConflict, True,    KubeletManagerActive",
        "KUBELET_FILE_UNREADABLE, KubeletConflict, Unknown, KubeletFileUnreadable",
        "KUBELET_MANAGERS_NONE,   KubeletConflict, False,   KubeletManagersNone",
        "KUBELET_NOT_CHECKED,     KubeletConflict, False,   NotChecked"
    })
    void eachReasonIsStatedOnItsConditionWithItsStatus(
            ConditionReason reason, String type, String status, String wire) {
        Condition c = ConditionBook.empty().with(reason, "why", T0).byType().get(type);

        assertThat(c.getType()).isEqualTo(type);
        assertThat(c.getStatus()).isEqualTo(status);
        assertThat(c.getReason()).isEqualTo(wire);
        assertThat(c.getMessage()).isEqualTo("why");
    }

    @ParameterizedTest
    @EnumSource(ConditionReason.class)
    void everyReasonIsOneCamelCaseWord(ConditionReason reason) {
        assertThat(reason.wire()).matches("[A-Z][A-Za-z0-9]*");
    }
}
