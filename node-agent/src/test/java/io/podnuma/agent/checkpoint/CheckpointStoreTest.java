package io.podnuma.agent.checkpoint;

import static io.podnuma.agent.checkpoint.CheckpointFixtures.ALLOCATOR;
import static io.podnuma.agent.checkpoint.CheckpointFixtures.CONFIG_HASH;
import static io.podnuma.agent.checkpoint.CheckpointFixtures.FINGERPRINT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podnuma.agent.engine.machine.TestTopologies;
import io.podnuma.agent.engine.state.NodeState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointStoreTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T17:30:05.123Z"), ZoneOffset.UTC);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ASIDE = "node-state.json.corrupt-20261129T173005.123Z";

    @TempDir
    Path dir;

    private CheckpointStore store() {
        return new CheckpointStore(dir, CheckpointStore.DEFAULT_FILE_NAME, CLOCK, temp -> {});
    }

    @Test
    void aMissingFileReadsAsMissingAndTheEmptyStateIsUsed() {
        CheckpointRead read = store().read(FINGERPRINT, CONFIG_HASH);
        assertThat(read).isInstanceOf(CheckpointRead.Missing.class);
        NodeState empty = ALLOCATOR.initialState();
        assertThat(read.stateOr(empty)).isSameAs(empty);
    }

    @Test
    void aWrittenCheckpointReadsBackExactlyAndChecksAgainstTheAllocator() throws IOException {
        Checkpoint c = CheckpointFixtures.checkpoint();
        store().write(c);
        CheckpointRead read = store().read(FINGERPRINT, CONFIG_HASH, ALLOCATOR::validate);
        assertThat(read).isEqualTo(new CheckpointRead.Loaded(c, false));
        assertThat(read.stateOr(ALLOCATOR.initialState())).isEqualTo(c.state());
        assertThat(Files.getPosixFilePermissions(dir.resolve("node-state.json")))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(listing()).containsExactly("node-state.json");
    }

    @Test
    void aNewerWriteReplacesTheOlderOne() {
        store().write(new Checkpoint(ALLOCATOR.initialState(), FINGERPRINT, CONFIG_HASH));
        Checkpoint later = CheckpointFixtures.checkpoint();
        store().write(later);
        assertThat(store().read(FINGERPRINT, CONFIG_HASH)).isEqualTo(new CheckpointRead.Loaded(later, false));
    }

    @Test
    void aDifferentPolicyHashIsReportedButTheStateIsKept() {
        Checkpoint c = CheckpointFixtures.checkpoint();
        store().write(c);
        assertThat(store().read(FINGERPRINT, "sha256:" + "d".repeat(64))).isEqualTo(new CheckpointRead.Loaded(c, true));
    }

    @Test
    void aTruncatedFileIsMovedAsideAsTruncated() throws IOException {
        byte[] full = written();
        Files.write(file(), Arrays.copyOf(full, full.length / 2));
        assertRejected(RejectReason.TRUNCATED, "the JSON ends early at byte " + full.length / 2);
        Files.write(file(), new byte[0]);
        assertRejected(RejectReason.TRUNCATED, "the file is empty");
    }

    @Test
    void aFlippedByteInsideAValueFailsTheChecksum() throws IOException {
        byte[] bytes = written();
        String text = new String(bytes, StandardCharsets.UTF_8);
        int at = text.indexOf("\"name\" : \"bubble\"") + "\"name\" : \"b".length();
        bytes[at] ^= 0x01; // 'u' -> 't'
        Files.write(file(), bytes);
        assertRejected(RejectReason.CHECKSUM_MISMATCH, "does not match the content");
    }

    @Test
    void aWrongChecksumIsRejectedNamingBothValues() throws IOException {
        String text = new String(written(), StandardCharsets.UTF_8);
        String stored = text.replaceAll("(?s).*\"checksum\" : \"(sha256:[0-9a-f]+)\".*", "$1");
        Files.writeString(file(), text.replace(stored, "sha256:" + "0".repeat(64)));
        CheckpointRead.Rejected r = assertRejected(
                RejectReason.CHECKSUM_MISMATCH,
                "checksum sha256:" + "0".repeat(64) + " does not match the content (" + stored
                        + "): the file changed after it was written");
        assertThat(r.reason().eventReason()).isEqualTo("CheckpointChecksumMismatch");
    }

    @Test
    void anUnknownVersionIsRejectedBeforeTheChecksumIsTrusted() throws IOException {
        String text = new String(written(), StandardCharsets.UTF_8);
        Files.writeString(file(), text.replace("\"version\" : 1,\n  \"topology\"", "\"version\" : 2,\n  \"topology\""));
        assertRejected(
                RejectReason.UNSUPPORTED_VERSION,
                "version 2 is not supported: this agent reads versions 1..1 (a newer agent wrote it?)");
        Files.writeString(
                file(), text.replace("\"version\" : 1,\n  \"topology\"", "\"version\" : \"1\",\n  \"topology\""));
        assertRejected(RejectReason.UNSUPPORTED_VERSION, "version is \"1\", expected an integer 1..1");
    }

    @Test
    void aCheckpointFromAnotherMachineIsRejectedAsTopologyMismatch() {
        written();
        TopologyFingerprint other = TopologyFingerprint.of(TestTopologies.DUAL_SOCKET_NO_HT);
        CheckpointRead read = store().read(other, CONFIG_HASH);
        assertThat(read).isInstanceOf(CheckpointRead.Rejected.class);
        CheckpointRead.Rejected r = (CheckpointRead.Rejected) read;
        assertThat(r.reason()).isEqualTo(RejectReason.TOPOLOGY_MISMATCH);
        assertThat(r.message())
                .isEqualTo("checkpoint " + file() + ": taken on topology " + FINGERPRINT + " but this machine is "
                        + other + ": CPUs, NUMA nodes or their layout changed since");
        assertThat(r.movedTo()).isEqualTo(dir.resolve(ASIDE));
    }

    @Test
    void garbageAndNonCheckpointJsonAreMalformed() throws IOException {
        Files.writeString(file(), "\u0000\u0001garbage{");
        assertRejected(RejectReason.MALFORMED, "not valid JSON: ");
        Files.writeString(file(), "[1, 2]");
        assertRejected(
                RejectReason.MALFORMED,
                "expected a JSON object with kind, version, topology, config, checksum and state, got array");
        Files.writeString(file(), "{\"kind\": \"v1/ConfigMap\"}");
        assertRejected(
                RejectReason.MALFORMED,
                "kind is \"v1/ConfigMap\", expected \"podnuma.io/node-checkpoint\": not a podnuma checkpoint");
        Files.writeString(file(), new String(written(), StandardCharsets.UTF_8) + " {}");
        assertRejected(RejectReason.MALFORMED, "not valid JSON: Trailing token");
        Files.write(file(), new byte[] {'{', '"', (byte) 0xC3, (byte) 0x28, '"', ':', '1', '}'});
        assertRejected(RejectReason.MALFORMED, "not valid JSON: Invalid UTF-8");
    }

    @Test
    void aStateThatCannotBeDecodedIsABadStateEvenWithARightChecksum() throws IOException {
        ObjectNode envelope = (ObjectNode) JSON.readTree(written());
        ((ObjectNode) envelope.get("state").get("pods").get(0)).put("qos", "Platinum");
        resign(envelope);
        assertRejected(
                RejectReason.BAD_STATE, "state: pods[0].qos \"Platinum\": allowed Guaranteed, Burstable, BestEffort");
        envelope.put("state", "none");
        resign(envelope);
        assertRejected(RejectReason.MALFORMED, "state must be an object (the node state), got \"none\"");
    }

    @Test
    void valuesARealWriterNeverWritesAreRefusedNotCoercedEvenWithARightChecksum() throws IOException {
        // Each was read as some other state before: a field skipped, a string or fraction turned into a number,
        // "01" into node 1, a repeated NUMA id folded.
        record Case(String field, java.util.function.Consumer<ObjectNode> edit, RejectReason reason, String message) {}
        List<Case> cases = List.of(
                new Case(
                        "unknown envelope field",
                        e -> e.put("owner", "someone"),
                        RejectReason.MALFORMED,
                        "field \"owner\" is not part of checkpoint version 1: allowed kind, version, topology, config,"
                                + " checksum, state"),
                new Case(
                        "unknown pod field",
                        e -> pod(e).put("priority", 5),
                        RejectReason.BAD_STATE,
                        "state: pods[0].priority is not a field of node state version 1: allowed uid, namespace, name,"
                                + " qos, placement, numaAffinity, bubble, podSharedPool, memory, containers"),
                new Case(
                        "unknown state field",
                        e -> ((ObjectNode) e.get("state")).put("reserved", "0"),
                        RejectReason.BAD_STATE,
                        "state: reserved is not a field of node state version 1: allowed version, sharedPool, pods"),
                new Case(
                        "charged as a string",
                        e -> ((ObjectNode) block(e).get("charged")).put("0", "1073741824"),
                        RejectReason.BAD_STATE,
                        "state: pods[0].memory[0].charged.0 must be a byte count of 0 or more, got \"1073741824\""),
                new Case(
                        "charged as a fraction",
                        e -> ((ObjectNode) block(e).get("charged")).put("0", 1.5),
                        RejectReason.BAD_STATE,
                        "state: pods[0].memory[0].charged.0 must be a byte count of 0 or more, got 1.5"),
                new Case(
                        "charged key with a leading zero",
                        e -> {
                            ObjectNode charged = ((ObjectNode) block(e).get("charged"));
                            charged.set("00", charged.remove("0"));
                        },
                        RejectReason.BAD_STATE,
                        "state: pods[0].memory[0].charged key \"00\" is not a NUMA node id (0..63, no leading zeros)"),
                new Case(
                        "size as a fraction",
                        e -> block(e).put("size", 1073741824.5),
                        RejectReason.BAD_STATE,
                        "state: pods[0].memory[0].size must be a byte count of 0 or more, got 1.0737418245E9"),
                new Case(
                        "repeated NUMA node",
                        e -> pod(e).withArray("numaAffinity").add(0),
                        RejectReason.BAD_STATE,
                        "state: pods[0].numaAffinity [0,0]: NUMA node ids must be ascending without repeats"));
        for (Case c : cases) {
            ObjectNode envelope = (ObjectNode) JSON.readTree(written());
            c.edit().accept(envelope);
            resign(envelope);
            assertThat(assertRejected(c.reason(), c.message()).message())
                    .as(c.field())
                    .isEqualTo("checkpoint " + file() + ": " + c.message());
        }
    }

    private static ObjectNode pod(ObjectNode envelope) {
        return (ObjectNode) envelope.get("state").get("pods").get(0);
    }

    private static ObjectNode block(ObjectNode envelope) {
        return (ObjectNode) pod(envelope).get("memory").get(0);
    }

    @Test
    void aDirectoryInPlaceOfTheFileIsUnreadable() throws IOException {
        Files.createDirectory(file());
        CheckpointRead.Rejected r = assertRejected(RejectReason.UNREADABLE, "cannot read: ");
        assertThat(r.reason().eventReason()).isEqualTo("CheckpointUnreadable");
    }

    @Test
    void aStateThatDoesNotFitTheMachineIsInconsistent() {
        written();
        CheckpointRead read = store().read(FINGERPRINT, CONFIG_HASH, s -> {
            throw new IllegalArgumentException("pod x holds CPUs 99 that are not online");
        });
        assertThat(read)
                .isEqualTo(new CheckpointRead.Rejected(
                        RejectReason.INCONSISTENT_STATE,
                        "checkpoint " + file() + ": the state does not fit this node: pod x holds CPUs 99 that are not"
                                + " online",
                        dir.resolve(ASIDE)));
    }

    @Test
    void aRejectedFileNeverOverwritesAnEarlierOneMovedAsideInTheSameMillisecond() throws IOException {
        Files.writeString(file(), "first");
        Files.writeString(dir.resolve(ASIDE), "older");
        CheckpointRead read = store().read(FINGERPRINT, CONFIG_HASH);
        assertThat(read).isInstanceOf(CheckpointRead.Rejected.class);
        assertThat(((CheckpointRead.Rejected) read).movedTo()).isEqualTo(dir.resolve(ASIDE + "-1"));
        assertThat(Files.readString(dir.resolve(ASIDE))).isEqualTo("older");
        assertThat(Files.readString(dir.resolve(ASIDE + "-1"))).isEqualTo("first");
    }

    @Test
    void aTempFileLeftByACrashIsDeletedAndThePreviousCheckpointIsUsed() throws IOException {
        Checkpoint previous = CheckpointFixtures.checkpoint();
        store().write(previous);
        // The crash came after part of the next checkpoint reached its temp file, before the rename.
        byte[] next = CheckpointCodec.encode(new Checkpoint(ALLOCATOR.initialState(), FINGERPRINT, CONFIG_HASH));
        Files.write(dir.resolve("node-state.json.tmp-12345"), Arrays.copyOf(next, next.length / 3));
        Files.writeString(dir.resolve("unrelated.tmp-1"), "not ours");
        assertThat(store().read(FINGERPRINT, CONFIG_HASH)).isEqualTo(new CheckpointRead.Loaded(previous, false));
        assertThat(listing()).containsExactly("node-state.json", "unrelated.tmp-1");
    }

    @Test
    void aWriteThatDiesBeforeTheRenameLeavesThePreviousCheckpointIntact() throws IOException {
        Checkpoint previous = CheckpointFixtures.checkpoint();
        store().write(previous);
        byte[] before = Files.readAllBytes(file());
        // A hook that copies the fsynced temp file and then fails: the copy is what a kill -9 would leave.
        CheckpointStore dying = new CheckpointStore(dir, CheckpointStore.DEFAULT_FILE_NAME, CLOCK, temp -> {
            Files.copy(temp, dir.resolve("node-state.json.tmp-killed"));
            throw new IOException("simulated crash");
        });
        assertThatThrownBy(() -> dying.write(new Checkpoint(ALLOCATOR.initialState(), FINGERPRINT, CONFIG_HASH)))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage("cannot write the checkpoint " + file()
                        + ": simulated crash (the previous checkpoint, if any, is unchanged)");
        assertThat(Files.readAllBytes(file())).isEqualTo(before);
        assertThat(listing()).containsExactly("node-state.json", "node-state.json.tmp-killed");
        assertThat(store().read(FINGERPRINT, CONFIG_HASH)).isEqualTo(new CheckpointRead.Loaded(previous, false));
        assertThat(listing()).containsExactly("node-state.json");
    }

    /** The seam's calls in order, each passed on to the file system unless {@link #failAt} names it. */
    static final class StepLog implements CheckpointFiles {
        final List<String> steps = new java.util.ArrayList<>();
        String failAt = "";

        private void step(String name) throws IOException {
            steps.add(name);
            if (name.equals(failAt)) {
                throw new IOException("No space left on device");
            }
        }

        @Override
        public Path createTemp(Path d, String prefix) throws IOException {
            step("createTemp");
            return HOST.createTemp(d, prefix);
        }

        @Override
        public void write(Path temp, byte[] bytes) throws IOException {
            step("write");
            HOST.write(temp, bytes);
        }

        @Override
        public void replace(Path temp, Path target) throws IOException {
            step("replace");
            HOST.replace(temp, target);
        }

        @Override
        public void moveAside(Path file, Path target) throws IOException {
            step("moveAside");
            HOST.moveAside(file, target);
        }

        @Override
        public void delete(Path file) throws IOException {
            step("delete");
            HOST.delete(file);
        }

        @Override
        public void sync(Path file) throws IOException {
            step("sync");
            HOST.sync(file);
        }

        @Override
        public void syncDirectory(Path d) throws IOException {
            step("syncDirectory");
            HOST.syncDirectory(d);
        }
    }

    @Test
    void everyChangeOfAWriteGoesThroughTheSeamInTheOrderOfTheAtomicReplace() throws IOException {
        StepLog log = new StepLog();
        new CheckpointStore(dir, log).write(CheckpointFixtures.checkpoint());
        assertThat(log.steps).containsExactly("createTemp", "write", "replace", "sync", "syncDirectory");
        assertThat(listing()).containsExactly("node-state.json");
    }

    /**
     * The agent's write in two parts: the rename, which a restarted agent reads at once, without an fsync (it may wait
     * behind the disk's other writers); then the fsyncs, which survive a deletion of the file meanwhile.
     */
    @Test
    void replaceRenamesWithoutAnFsyncAndMakeDurableSyncsTheFileThenTheDirectory() throws IOException {
        StepLog log = new StepLog();
        CheckpointStore logged = new CheckpointStore(dir, log);
        Checkpoint written = CheckpointFixtures.checkpoint();

        logged.replace(written);

        assertThat(log.steps).containsExactly("createTemp", "write", "replace");
        assertThat(store().read(FINGERPRINT, CONFIG_HASH)).isEqualTo(new CheckpointRead.Loaded(written, false));
        log.steps.clear();
        logged.makeDurable();
        assertThat(log.steps).containsExactly("sync", "syncDirectory");

        store().delete();
        log.steps.clear();
        logged.makeDurable();
        assertThat(log.steps).containsExactly("sync", "syncDirectory");
        log.failAt = "sync";
        assertThatThrownBy(logged::makeDurable)
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage("cannot make the checkpoint " + file() + " durable (fsync): No space left on device");
    }

    @Test
    void aFullDirectoryFailsTheWriteKeepsThePreviousCheckpointAndLeavesNoTempFile() throws IOException {
        Checkpoint previous = CheckpointFixtures.checkpoint();
        store().write(previous);
        StepLog log = new StepLog();
        log.failAt = "write";
        assertThatThrownBy(() -> new CheckpointStore(dir, log)
                        .write(new Checkpoint(ALLOCATOR.initialState(), FINGERPRINT, CONFIG_HASH)))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage("cannot write the checkpoint " + file()
                        + ": No space left on device (the previous checkpoint, if any, is unchanged)");
        assertThat(log.steps).containsExactly("createTemp", "write", "delete");
        assertThat(listing()).containsExactly("node-state.json");
        assertThat(store().read(FINGERPRINT, CONFIG_HASH)).isEqualTo(new CheckpointRead.Loaded(previous, false));
    }

    /** Writes {@code envelope} with a checksum that matches it, as a buggy or older writer might. */
    private void resign(ObjectNode envelope) throws IOException {
        envelope.remove("checksum");
        String sum = CheckpointCodec.checksum(envelope);
        envelope.put("checksum", sum);
        Files.write(file(), JSON.writeValueAsBytes(envelope));
    }

    private byte[] written() {
        store().write(CheckpointFixtures.checkpoint());
        try {
            return Files.readAllBytes(file());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private CheckpointRead.Rejected assertRejected(RejectReason reason, String messagePart) throws IOException {
        byte[] content = Files.isDirectory(file()) ? null : Files.readAllBytes(file());
        List<String> before = listing();
        CheckpointRead read = store().read(FINGERPRINT, CONFIG_HASH, ALLOCATOR::validate);
        assertThat(read).isInstanceOf(CheckpointRead.Rejected.class);
        CheckpointRead.Rejected r = (CheckpointRead.Rejected) read;
        assertThat(r.reason()).as(r.message()).isEqualTo(reason);
        assertThat(r.message()).startsWith("checkpoint " + file() + ": ").contains(messagePart);
        assertThat(Files.exists(file())).as("the checkpoint is moved away").isFalse();
        if (content == null) {
            assertThat(r.movedTo()).isDirectory();
        } else {
            assertThat(Files.readAllBytes(r.movedTo())).isEqualTo(content);
        }
        assertThat(listing()).hasSize(before.size());
        Files.delete(r.movedTo());
        return r;
    }

    private Path file() {
        return dir.resolve("node-state.json");
    }

    private List<String> listing() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
