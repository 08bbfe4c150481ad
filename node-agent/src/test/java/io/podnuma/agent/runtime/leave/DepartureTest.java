package io.podnuma.agent.runtime.leave;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.membership.Membership;
import io.podnuma.agent.membership.NodeMembership;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class DepartureTest {

    static final class FakeMembership implements NodeMembership {
        final Supplier<Membership> answer;
        final AtomicInteger deletions = new AtomicInteger();
        RuntimeException deleteFails;

        FakeMembership(Supplier<Membership> answer) {
            this.answer = answer;
        }

        @Override
        public Membership ask() {
            return answer.get();
        }

        @Override
        public void deleteReports() {
            deletions.incrementAndGet();
            if (deleteFails != null) {
                throw deleteFails;
            }
        }
    }

    static Departure departure(NodeMembership m) {
        return new Departure(m, "worker-1", Duration.ofMillis(200));
    }

    @Test
    void aNodeThatLeftRestoresAndTakesItsReportsWithIt() {
        FakeMembership m = new FakeMembership(() -> Membership.LEFT);
        Departure d = departure(m);
        assertThat(d.decide()).isEqualTo(Shutdown.RESTORE);
        d.after(Shutdown.RESTORE);
        assertThat(m.deletions).hasValue(1);
    }

    @Test
    void aMemberKeepsItsPinsAndItsReports() {
        FakeMembership m = new FakeMembership(() -> Membership.MEMBER);
        Departure d = departure(m);
        assertThat(d.decide()).isEqualTo(Shutdown.KEEP_PINS);
        d.after(Shutdown.KEEP_PINS);
        assertThat(m.deletions).hasValue(0);
    }

    @Test
    void anApiServerThatCannotBeAskedKeepsThePins() {
        FakeMembership m = new FakeMembership(() -> {
            throw new IllegalStateException("connection refused");
        });
        assertThat(departure(m).decide()).isEqualTo(Shutdown.KEEP_PINS);
    }

    @Test
    void noAnswerWithinTheTimeoutKeepsThePins() {
        CountDownLatch never = new CountDownLatch(1);
        FakeMembership m = new FakeMembership(() -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Membership.LEFT;
        });
        long start = System.nanoTime();
        assertThat(departure(m).decide()).isEqualTo(Shutdown.KEEP_PINS);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        never.countDown();
    }

    @Test
    void aFailedReportDeletionDoesNotStopTheShutdown() {
        FakeMembership m = new FakeMembership(() -> Membership.LEFT);
        m.deleteFails = new IllegalStateException("forbidden");
        departure(m).after(Shutdown.RESTORE);
        assertThat(m.deletions).hasValue(1);
    }
}
