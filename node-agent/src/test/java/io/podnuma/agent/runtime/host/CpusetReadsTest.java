package io.podnuma.agent.runtime.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.cgroup.CgroupPath;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CpusetReadsTest {

    private static final CgroupPath A = CgroupPath.root().child("kubepods").child("a");
    private static final CgroupPath B = CgroupPath.root().child("kubepods").child("b");

    @Test
    void unwatchedEveryTickReadsEverything() {
        CpusetReads reads = new CpusetReads(Duration.ofSeconds(10));
        reads.written(A);
        for (int i = 0; i < 20; i++) {
            assertThat(reads.next().full()).isTrue();
        }
    }

    @Test
    void watchedATickReadsWhatWasWrittenSinceTheLastOneAndEverythingOnceAMinute() {
        CpusetReads reads = new CpusetReads(Duration.ofSeconds(10));
        reads.watch();
        assertThat(reads.next().full())
                .as("the first tick after the watch starts")
                .isTrue();
        List<Boolean> full = new ArrayList<>();
        reads.written(A);
        CpusetReads.Tick t = reads.next();
        assertThat(t.full()).isFalse();
        assertThat(t.reads(A)).isTrue();
        assertThat(t.reads(B)).isFalse();
        assertThat(reads.next().paths()).as("taken once").isEmpty();
        for (int i = 0; i < 12; i++) {
            full.add(reads.next().full());
        }
        // Ticks 4..15 after the first: a minute of 10 s ticks is 6, so the 7th and 13th are full.
        assertThat(full)
                .containsExactly(false, false, false, true, false, false, false, false, false, true, false, false);
    }

    @Test
    void aContainerThatCannotBeWatchedIsReadEveryTickUntilItIsGone() {
        CpusetReads reads = new CpusetReads(Duration.ofSeconds(1));
        reads.watch();
        reads.next();
        reads.unwatched(B);
        assertThat(reads.next().paths()).containsExactly(B);
        assertThat(reads.next().paths()).containsExactly(B);
        reads.written(A);
        reads.removed(B);
        assertThat(reads.next().paths()).containsExactly(A);
    }

    @Test
    void lostReportsMakeTheNextTickFull() {
        CpusetReads reads = new CpusetReads(Duration.ofSeconds(1));
        reads.watch();
        reads.next();
        assertThat(reads.next().full()).isFalse();
        reads.lost();
        assertThat(reads.next().full()).isTrue();
        assertThat(reads.next().full()).isFalse();
    }

    @Test
    void aPeriodOfAMinuteOrMoreMakesEveryTickFullAndAZeroPeriodIsRefused() {
        CpusetReads reads = new CpusetReads(Duration.ofMinutes(2));
        reads.watch();
        for (int i = 0; i < 5; i++) {
            assertThat(reads.next().full()).isTrue();
        }
        assertThatThrownBy(() -> new CpusetReads(Duration.ZERO)).hasMessageContaining("reconcilePeriod");
    }
}
