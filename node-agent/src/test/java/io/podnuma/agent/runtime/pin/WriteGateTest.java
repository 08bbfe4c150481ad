package io.podnuma.agent.runtime.pin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The write gate's transitions, and what each mode allows. */
class WriteGateTest {

    @Test
    void activeWritesAndKeepsCpusApart() {
        WriteGate g = new WriteGate(WriteMode.ACTIVE);
        assertThat(g.mayWrite()).isTrue();
        assertThat(g.writes()).isTrue();
        assertThat(g.rebuilding()).isFalse();
        assertThat(g.planMode()).isEqualTo(PinPlan.Mode.KEEP_APART);
    }

    @Test
    void rebuildingWritesNothingUntilTheFullSyncHasDecided() {
        WriteGate g = new WriteGate(WriteMode.ACTIVE);
        g.rebuild();
        assertThat(g.mode()).isEqualTo(WriteMode.REBUILDING);
        assertThat(g.mayWrite()).isTrue(); // the passes run, so the pool propagation is still timed
        assertThat(g.writes()).isFalse();
        assertThat(g.rebuilding()).isTrue();
        g.synced();
        assertThat(g.mode()).isEqualTo(WriteMode.ACTIVE);
        assertThat(g.writes()).isTrue();
    }

    @Test
    void aKubeletConflictSuspendsTheModeAndIsReportedOnceWhenItStarts() {
        WriteGate g = new WriteGate(WriteMode.REBUILDING);
        assertThat(g.kubelet(CpusetOwner.KUBELET)).isTrue();
        assertThat(g.kubelet(CpusetOwner.KUBELET)).isFalse();
        assertThat(g.mode()).isEqualTo(WriteMode.KUBELET_CONFLICT);
        assertThat(g.mayWrite()).isFalse();
        assertThat(g.writes()).isFalse();
        assertThat(g.rebuilding()).isTrue(); // the host is still the only record
        g.synced(); // the full sync ends the rebuild during the conflict
        assertThat(g.mode()).isEqualTo(WriteMode.KUBELET_CONFLICT);
        assertThat(g.rebuilding()).isFalse();
        assertThat(g.kubelet(CpusetOwner.AGENT)).isFalse();
        assertThat(g.mode()).isEqualTo(WriteMode.ACTIVE);
        assertThat(g.kubelet(CpusetOwner.KUBELET)).isTrue(); // a new conflict is reported again
    }

    @Test
    void aConflictEndingBeforeTheFullSyncReturnsToRebuilding() {
        WriteGate g = new WriteGate(WriteMode.REBUILDING);
        g.kubelet(CpusetOwner.KUBELET);
        g.kubelet(CpusetOwner.AGENT);
        assertThat(g.mode()).isEqualTo(WriteMode.REBUILDING);
    }

    @Test
    void restoringWritesEvenWhileRebuildingAndKeepsNothingApart() {
        WriteGate g = new WriteGate(WriteMode.REBUILDING);
        g.restore();
        assertThat(g.mode()).isEqualTo(WriteMode.RESTORING);
        assertThat(g.writes()).isTrue();
        assertThat(g.planMode()).isEqualTo(PinPlan.Mode.RESTORE);
        assertThat(g.kubelet(CpusetOwner.KUBELET))
                .isFalse(); // no check runs while restoring; a late one changes nothing
        assertThat(g.mode()).isEqualTo(WriteMode.RESTORING);
    }

    @Test
    void underAKubeletConflictTheRestoreWritesNothing() {
        WriteGate g = new WriteGate(WriteMode.ACTIVE);
        g.kubelet(CpusetOwner.KUBELET);
        g.restore();
        assertThat(g.mayWrite()).isFalse();
        assertThat(g.mode()).isEqualTo(WriteMode.KUBELET_CONFLICT);
    }

    @Test
    void haltedIsFinal() {
        WriteGate g = new WriteGate(WriteMode.ACTIVE);
        g.halt();
        g.synced();
        g.kubelet(CpusetOwner.AGENT);
        g.restore();
        assertThat(g.mode()).isEqualTo(WriteMode.HALTED);
        assertThat(g.halted()).isTrue();
        assertThat(g.mayWrite()).isFalse();
        assertThat(g.writes()).isFalse();
    }

    @Test
    void anAgentStartsActiveOrRebuilding() {
        assertThatThrownBy(() -> new WriteGate(WriteMode.HALTED)).isInstanceOf(IllegalArgumentException.class);
    }
}
