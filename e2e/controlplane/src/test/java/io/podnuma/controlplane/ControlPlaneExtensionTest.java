package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

class ControlPlaneExtensionTest {

    @Test
    void anUnavailablePlaneSkipsEveryCallerWithTheReasonAndIsTriedOnce() {
        AtomicInteger attempts = new AtomicInteger();
        var shared = new ControlPlaneExtension.SharedPlane(() -> {
            attempts.incrementAndGet();
            throw new ControlPlaneUnavailableException("no Go toolchain");
        });
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(shared::get)
                    .isInstanceOf(TestAbortedException.class)
                    .hasMessage("local control plane unavailable: no Go toolchain");
        }
        assertThat(attempts).hasValue(1);
        assertThat(shared.started()).isEmpty();
    }

    @Test
    void aPlaneThatFailedToStartFailsEveryCallerWithTheCauseAndIsTriedOnce() {
        AtomicInteger attempts = new AtomicInteger();
        var shared = new ControlPlaneExtension.SharedPlane(() -> {
            attempts.incrementAndGet();
            throw new IllegalStateException("kube-apiserver exited with code 1");
        });
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(shared::get)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("failed to start: kube-apiserver exited with code 1")
                    .hasCauseInstanceOf(IllegalStateException.class);
        }
        assertThat(attempts).hasValue(1);
        shared.close();
    }
}
