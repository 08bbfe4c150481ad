package io.podnuma.agent.checkpoint;

import static io.podnuma.agent.checkpoint.CheckpointFixtures.ALLOCATOR;
import static io.podnuma.agent.checkpoint.CheckpointFixtures.CONFIG_HASH;
import static io.podnuma.agent.checkpoint.CheckpointFixtures.FINGERPRINT;
import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.testing.Seeds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded random byte mutations of a valid checkpoint: every mutated file either reads back exactly the state
 * that was written or is rejected with a reason and moved aside; nothing else (no exception, no other state).
 */
class CheckpointFuzzTest {

    private static final int MUTATIONS = 2000;
    private static final String JSON_CHARS = " \n\t{}[]\",:0123456789-.aeflnrstu\\";

    @TempDir
    Path dir;

    @Test
    void everyMutationReadsBackExactlyOrIsRejectedWithAReason() throws IOException {
        long seed = Seeds.announce(getClass().getSimpleName());
        Random rnd = new Random(seed);
        Checkpoint original = CheckpointFixtures.checkpoint();
        byte[] valid = CheckpointCodec.encode(original);
        CheckpointStore store = new CheckpointStore(
                dir,
                CheckpointStore.DEFAULT_FILE_NAME,
                Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC),
                temp -> {});
        Path file = store.file();
        Map<RejectReason, Integer> rejected = new EnumMap<>(RejectReason.class);
        int loaded = 0;
        for (int i = 0; i < MUTATIONS; i++) {
            byte[] mutated = mutate(rnd, valid);
            Files.write(file, mutated);
            String what = "seed " + seed + " mutation " + i;
            CheckpointRead read = store.read(FINGERPRINT, CONFIG_HASH, ALLOCATOR::validate);
            switch (read) {
                case CheckpointRead.Loaded l -> {
                    assertThat(l.checkpoint()).as(what).isEqualTo(original);
                    assertThat(l.configChanged()).as(what).isFalse();
                    assertThat(file).as(what).exists();
                    loaded++;
                }
                case CheckpointRead.Rejected r -> {
                    assertThat(r.message()).as(what).startsWith("checkpoint " + file + ": ");
                    assertThat(r.message().length())
                            .as(what)
                            .isGreaterThan(("checkpoint " + file + ": ").length() + 10);
                    assertThat(file).as(what).doesNotExist();
                    assertThat(Files.readAllBytes(r.movedTo())).as(what).isEqualTo(mutated);
                    Files.delete(r.movedTo());
                    rejected.merge(r.reason(), 1, Integer::sum);
                }
                case CheckpointRead.Missing m -> throw new AssertionError(what + ": an existing file read as missing");
            }
        }
        System.out.println(getClass().getSimpleName() + ": " + MUTATIONS + " mutations, " + loaded
                + " read back exactly (whitespace or formatting only), rejected " + rejected);
        // Most single-byte changes land in a value, the checksum or the structure; some only in whitespace.
        assertThat(rejected.getOrDefault(RejectReason.CHECKSUM_MISMATCH, 0)).isGreaterThan(MUTATIONS / 10);
        assertThat(rejected.getOrDefault(RejectReason.MALFORMED, 0)).isGreaterThan(MUTATIONS / 20);
        assertThat(rejected.getOrDefault(RejectReason.TRUNCATED, 0)).isGreaterThan(0);
        assertThat(loaded).isGreaterThan(0);
    }

    private static byte[] mutate(Random rnd, byte[] valid) {
        byte[] b = valid.clone();
        int rounds = 1 + (rnd.nextInt(4) == 0 ? rnd.nextInt(4) : 0);
        for (int k = 0; k < rounds; k++) {
            if (b.length == 0) {
                return b;
            }
            int at = rnd.nextInt(b.length);
            switch (rnd.nextInt(7)) {
                case 0 -> b[at] ^= (byte) (1 << rnd.nextInt(8));
                case 1 -> b[at] = (byte) rnd.nextInt(256);
                case 2 -> b[at] = (byte) JSON_CHARS.charAt(rnd.nextInt(JSON_CHARS.length()));
                case 3 -> b = Arrays.copyOf(b, at);
                case 4 -> {
                    int len = 1 + rnd.nextInt(Math.min(16, b.length - at));
                    byte[] out = new byte[b.length - len];
                    System.arraycopy(b, 0, out, 0, at);
                    System.arraycopy(b, at + len, out, at, b.length - at - len);
                    b = out;
                }
                case 5 -> {
                    byte[] extra = new byte[1 + rnd.nextInt(8)];
                    rnd.nextBytes(extra);
                    if (rnd.nextBoolean()) {
                        Arrays.fill(extra, (byte) ' ');
                    }
                    b = insert(b, at, extra);
                }
                default -> {
                    int len = 1 + rnd.nextInt(Math.min(32, b.length - at));
                    b = insert(b, rnd.nextInt(b.length + 1), Arrays.copyOfRange(b, at, at + len));
                }
            }
        }
        return b;
    }

    private static byte[] insert(byte[] b, int at, byte[] extra) {
        byte[] out = new byte[b.length + extra.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(extra, 0, out, at, extra.length);
        System.arraycopy(b, at, out, at + extra.length, b.length - at);
        return out;
    }
}
