package io.podnuma.agent.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Condition;
import io.podnuma.agent.kubelet.FileCheck;
import io.podnuma.agent.kubelet.FileVerdict;
import io.podnuma.agent.kubelet.KubeletCheck;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConditionBookTest {

    static final Instant T0 = Instant.parse("2026-11-29T10:00:00.250Z");
    static final Instant T1 = T0.plusSeconds(60);

    private static Condition only(ConditionBook book, String type) {
        return book.byType().get(type);
    }

    @Test
    void theTransitionTimeStaysWhileTheStatusStaysAndMovesWhenItChanges() {
        ConditionBook b0 = ConditionBook.empty().with("Drift", "False", "NoDrift", "all cpusets as wanted", T0);
        ConditionBook same = b0.with("Drift", "False", "NoDrift", "still all as wanted", T1);
        ConditionBook flipped = same.with("Drift", "True", "Repaired", "cpuset.cpus of pod x repaired", T1);

        assertThat(only(b0, "Drift").getLastTransitionTime()).isEqualTo("2026-11-29T10:00:00Z");
        assertThat(only(same, "Drift").getLastTransitionTime()).isEqualTo("2026-11-29T10:00:00Z");
        assertThat(only(same, "Drift").getMessage()).isEqualTo("still all as wanted");
        assertThat(only(flipped, "Drift").getLastTransitionTime()).isEqualTo("2026-11-29T10:01:00Z");
        assertThat(only(flipped, "Drift").getStatus()).isEqualTo("True");
    }

    @Test
    void restatingAConditionRendersTheSameObject() {
        NodeReport r = ReportFixtures.report("n", ReportFixtures.empty());
        ConditionBook book = ConditionBook.empty().with("Ready", "True", "Synced", "ok", T0);
        ConditionBook restated = book.with("Ready", "True", "Synced", "ok", T1);

        assertThat(CanonicalForm.of(NodeStateRenderer.render(withConditions(r, restated.conditions()))))
                .isEqualTo(CanonicalForm.of(NodeStateRenderer.render(withConditions(r, book.conditions()))));
    }

    private static NodeReport withConditions(NodeReport r, List<Condition> conditions) {
        return new NodeReport(
                r.nodeName(),
                r.topology(),
                r.state(),
                r.policyName(),
                r.configHash(),
                r.reservedCpus(),
                conditions,
                r.lastError());
    }

    @Test
    void conditionsAreListedInTypeOrder() {
        ConditionBook b = ConditionBook.empty()
                .with("Ready", "True", "Synced", "ok", T0)
                .with("Drift", "False", "NoDrift", "ok", T0)
                .with("KubeletConflict", "False", "KubeletManagersNone", "ok", T0);

        assertThat(b.conditions()).extracting(Condition::getType).containsExactly("Drift", "KubeletConflict", "Ready");
    }

    @Test
    void aStatusOutsideTheStandardThreeIsRejected() {
        assertThatThrownBy(() -> ConditionBook.empty().with("Ready", "yes", "Synced", "ok", T0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("condition Ready: status \"yes\" is not allowed: use True, False or Unknown");
    }

    @ParameterizedTest
    @CsvSource({
        "CONFLICT,    True,    KubeletManagerActive",
        "UNREADABLE,  Unknown, KubeletFileUnreadable",
        "COMPATIBLE,  False,   KubeletManagersNone",
        "NOT_CHECKED, False,   NotChecked"
    })
    void theKubeletVerdictBecomesTheKubeletConflictCondition(FileVerdict verdict, String status, String reason) {
        KubeletCheck check = new KubeletCheck(
                List.of(new FileCheck(Path.of("/var/lib/kubelet/cpu_manager_state"), verdict, "what the file said")));

        Condition c = only(ConditionBook.empty().withKubelet(check, T0), "KubeletConflict");

        assertThat(c.getStatus()).isEqualTo(status);
        assertThat(c.getReason()).isEqualTo(reason);
        assertThat(c.getMessage()).isEqualTo(check.message());
    }
}
