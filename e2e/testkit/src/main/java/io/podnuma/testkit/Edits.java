package io.podnuma.testkit;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.function.Supplier;

/**
 * A test's read-modify-write of an object that a controller writes too. fabric8's {@code edit} sends the
 * resourceVersion it read, so a status or metadata write by the operator (or kwok's node heartbeat) between its read
 * and its write is answered 409 Conflict: not the test's failure, and the edit read again succeeds.
 */
public final class Edits {

    static final int ATTEMPTS = 5;

    private Edits() {}

    /** Runs {@code edit} again on 409 Conflict, at most {@link #ATTEMPTS} times in all; any other error at once. */
    public static <T> T retryingConflicts(Supplier<T> edit) {
        for (int attempt = 1; ; attempt++) {
            try {
                return edit.get();
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == ATTEMPTS) {
                    throw e;
                }
            }
        }
    }
}
