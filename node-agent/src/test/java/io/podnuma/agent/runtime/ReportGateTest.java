package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class ReportGateTest {

    private final List<String> handedOn = new ArrayList<>();
    private final ReportGate<String> gate = new ReportGate<>(handedOn::add);

    @Test
    void beforeReadyOnlyTheLastReportIsKeptAndItGoesOnAtReady() {
        gate.accept("recovered");
        gate.accept("first full sync");
        assertThat(handedOn).isEmpty();

        gate.open();

        assertThat(handedOn).containsExactly("first full sync");
    }

    @Test
    void afterReadyEveryReportGoesStraightThroughAndASecondOpenRepeatsNothing() {
        gate.accept("held");
        gate.open();
        gate.accept("a");
        gate.accept("b");
        gate.open();

        assertThat(handedOn).containsExactly("held", "a", "b");
    }

    @Test
    void readyWithNothingHeldHandsOnNothing() {
        gate.open();

        assertThat(handedOn).isEmpty();
    }

    @Test
    void aReportAcceptedWhileTheHeldOneIsHandedOnComesAfterIt() throws Exception {
        CountDownLatch inDownstream = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        ReportGate<String> slow = new ReportGate<>(r -> {
            seen.add(r);
            if (r.equals("held")) {
                inDownstream.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        slow.accept("held");
        Thread opener = Thread.ofPlatform().start(slow::open);
        inDownstream.await();
        Thread reporter = Thread.ofPlatform().start(() -> slow.accept("newer"));
        // Either the reporter waits for the gate while the held report is handed on, or it got through and ended:
        // only then is the absence of "newer" below evidence, whichever it did.
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> blockedOn(reporter, slow) || reporter.getState() == Thread.State.TERMINATED);
        assertThat(seen).containsExactly("held");
        release.countDown();
        opener.join();
        reporter.join();

        assertThat(seen).containsExactly("held", "newer");
    }

    /** Whether {@code t} waits to enter {@code monitor}'s lock (not just any lock, such as the list's). */
    private static boolean blockedOn(Thread t, Object monitor) {
        ThreadInfo info = ManagementFactory.getThreadMXBean().getThreadInfo(t.threadId());
        if (info == null || info.getThreadState() != Thread.State.BLOCKED) {
            return false;
        }
        LockInfo lock = info.getLockInfo();
        return lock != null && lock.getIdentityHashCode() == System.identityHashCode(monitor);
    }
}
