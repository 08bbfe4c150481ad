package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
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
        Thread.sleep(50);
        assertThat(seen).containsExactly("held");
        release.countDown();
        opener.join();
        reporter.join();

        assertThat(seen).containsExactly("held", "newer");
    }
}
