package io.podnuma.agent.checkpoint;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Explicit upgrades of older checkpoint envelopes, one step per version: step {@code i} turns a version
 * {@code i + 1} envelope into a version {@code i + 2} one. Reading applies the steps from the file's version
 * up to {@link CheckpointCodec#VERSION}, after the file's checksum has been verified by its own version's rule.
 *
 * <p>Version 1 is the first format, so there is no step yet. When version 2 comes, add its step here, keep a
 * version 1 file under {@code src/test/resources/checkpoint/} and its expected state in
 * {@code CheckpointCompatibilityTest}: every format ever written must stay readable.
 */
final class CheckpointMigrations {

    /** The oldest version still read. */
    static final int OLDEST = 1;

    private static final List<UnaryOperator<ObjectNode>> STEPS = List.of();

    private CheckpointMigrations() {}

    static ObjectNode upgrade(ObjectNode envelope, int fromVersion) {
        if (OLDEST + STEPS.size() != CheckpointCodec.VERSION) {
            throw new IllegalStateException("checkpoint migrations cover versions " + OLDEST + ".."
                    + (OLDEST + STEPS.size()) + " but the current version is " + CheckpointCodec.VERSION);
        }
        ObjectNode e = envelope;
        for (int v = fromVersion; v < CheckpointCodec.VERSION; v++) {
            e = STEPS.get(v - OLDEST).apply(e);
            e.put("version", v + 1);
        }
        return e;
    }
}
