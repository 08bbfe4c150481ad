package io.podnuma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EditsTest {

    @Test
    void aConflictIsTriedAgainAndTheEditsResultReturned() {
        AtomicInteger calls = new AtomicInteger();
        String out = Edits.retryingConflicts(() -> {
            if (calls.incrementAndGet() < 3) {
                throw new KubernetesClientException("the object has been modified", 409, null);
            }
            return "edited";
        });
        assertThat(out).isEqualTo("edited");
        assertThat(calls).hasValue(3);
    }

    @Test
    void otherErrorsAndTheLastConflictAreThrown() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> Edits.retryingConflicts(() -> {
                    calls.incrementAndGet();
                    throw new KubernetesClientException("forbidden", 403, null);
                }))
                .hasMessageContaining("forbidden");
        assertThat(calls).hasValue(1);

        calls.set(0);
        assertThatThrownBy(() -> Edits.retryingConflicts(() -> {
                    calls.incrementAndGet();
                    throw new KubernetesClientException("modified", 409, null);
                }))
                .hasMessageContaining("modified");
        assertThat(calls).hasValue(Edits.ATTEMPTS);
    }
}
