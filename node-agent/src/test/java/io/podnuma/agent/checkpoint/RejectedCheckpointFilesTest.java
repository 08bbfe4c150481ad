package io.podnuma.agent.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.podnuma.agent.checkpoint.StoredCheckpoints.Stored;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.state.NodeState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Files an agent must not use, kept under {@code src/test/resources/checkpoint/rejected/} (each made once from
 * {@code v1/node-state.json}, as the case says): each is refused with its typed reason and exact message, moved
 * aside byte for byte, and the agent starts from the empty state and rebuilds from the running pods (the
 * documented recovery), never from a state the file does not say.
 */
class RejectedCheckpointFilesTest {

    /**
     * @param file under {@code checkpoint/}
     * @param how how the file was made, or what leaves such a file on a node
     * @param message what follows {@code checkpoint <path>: } in the rejection
     */
    record Case(String file, String how, RejectReason reason, String message) {
        @Override
        public String toString() {
            return file + " (" + how + ")";
        }
    }

    static final List<Case> CASES = List.of(
            new Case(
                    "rejected/empty.json",
                    "a file created but never written (a crash outside the agent's write protocol)",
                    RejectReason.TRUNCATED,
                    "the file is empty"),
            new Case(
                    "rejected/truncated.json",
                    "v1/node-state.json cut after 1024 bytes, between two object entries",
                    RejectReason.TRUNCATED,
                    "the JSON ends early at byte 1024: Unexpected end-of-input within/between Object entries"),
            new Case(
                    "rejected/zero-filled.json",
                    "as many NUL bytes as v1/node-state.json: what a file system can leave after a power loss",
                    RejectReason.MALFORMED,
                    "not valid JSON: Illegal character ((CTRL-CHAR, code 0)): only regular white space (\\r, \\n,"
                            + " \\t) is allowed between tokens (line 1, column 2)"),
            new Case(
                    "rejected/future-version.json",
                    "envelope version 2 with a field version 1 does not have, checksum recomputed: a newer agent's"
                            + " file after a rollback",
                    RejectReason.UNSUPPORTED_VERSION,
                    "version 2 is not supported: this agent reads versions 1..1 (a newer agent wrote it?)"),
            new Case(
                    "rejected/future-state-version.json",
                    "envelope version 1 around a state of version 2, checksum recomputed",
                    RejectReason.BAD_STATE,
                    "state: node state version 2 is not supported: this agent reads version 1 only; move the file"
                            + " aside to rebuild the state from the running pods"),
            new Case(
                    "rejected/hand-edited.json",
                    "container CPUs \"1,7\" edited to \"1,8\", checksum left as it was",
                    RejectReason.CHECKSUM_MISMATCH,
                    "checksum sha256:0b69e699587cdd3de967934848c0786025ffdc665e1c30205572591a45d491bc does not match"
                            + " the content (sha256:34729066bf96939b6f6ce261a9cf7f27bcceff6535ed2668da130d3429a056e9):"
                            + " the file changed after it was written"),
            new Case(
                    "rejected/unknown-field.json",
                    "a field \"comment\" added, checksum recomputed",
                    RejectReason.MALFORMED,
                    "field \"comment\" is not part of checkpoint version 1: allowed kind, version, topology, config,"
                            + " checksum, state"),
            new Case(
                    "rejected/inconsistent.json",
                    "pod plain's exclusive CPUs \"1,7\" moved to \"2,8\" (another pod's, on the other NUMA node),"
                            + " checksum recomputed",
                    RejectReason.INCONSISTENT_STATE,
                    "the state does not fit this node: pod default/plain (uid uid-plain) container app: cpus is"
                            + " \"2,8\", expected CPUs of NUMA node {1}, the pod's numaAffinity, only, under"
                            + " single-numa-node"),
            new Case(
                    "rejected/kubelet-cpu-manager-state.json",
                    "the kubelet's cpu_manager_state where the agent's file belongs (state directory pointed at the"
                            + " kubelet's)",
                    RejectReason.MALFORMED,
                    "kind is nothing (the field is missing), expected \"podnuma.io/node-checkpoint\": not a podnuma checkpoint"),
            new Case(
                    "v1/multi-numa.json",
                    "a valid file of the 80-CPU machine read on the 12-CPU one (the disk moved, or the BIOS changed"
                            + " the NUMA layout)",
                    RejectReason.TOPOLOGY_MISMATCH,
                    "taken on topology sha256:2dcd32409e7b453b5b8da16d3c2fdf396a3f275aab6eb4a1d4502015222eb041 but this"
                            + " machine is sha256:b3b7029ccd133f6beacbc4f089c5f0ec8d63026f4d8019f58699b030bedcfae2:"
                            + " CPUs, NUMA nodes or their layout changed since"));

    /** Every case is read as if on the machine and configuration of {@code v1/node-state.json}. */
    private static final Stored MACHINE = StoredCheckpoints.ALL.getFirst();

    @TempDir
    Path dir;

    static Stream<Case> cases() {
        return CASES.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachIsRefusedWithItsReasonMovedAsideAndTheStateRebuilt(Case c) throws IOException {
        byte[] bytes = CheckpointCompatibilityTest.resource("/checkpoint/" + c.file());
        CheckpointStore store = new CheckpointStore(dir);
        Files.write(store.file(), bytes);
        NodeAllocator allocator = NodeAllocator.create(MACHINE.machine(), MACHINE.config());

        CheckpointRead read = store.read(
                new TopologyFingerprint(MACHINE.fingerprint()), StoredCheckpoints.CONFIG_HASH, allocator::validate);

        assertThat(read).as("%s", c).isInstanceOf(CheckpointRead.Rejected.class);
        CheckpointRead.Rejected rejected = (CheckpointRead.Rejected) read;
        assertThat(rejected.reason()).as("%s", c).isEqualTo(c.reason());
        assertThat(rejected.message()).isEqualTo("checkpoint " + store.file() + ": " + c.message());
        assertThat(store.file()).doesNotExist();
        assertThat(rejected.movedTo().getFileName().toString()).startsWith("node-state.json.corrupt-");
        assertThat(Files.readAllBytes(rejected.movedTo())).isEqualTo(bytes);
        NodeState empty = allocator.initialState();
        assertThat(read.stateOr(empty)).isSameAs(empty);
        // The next start finds no checkpoint: the file is not refused again on every start.
        assertThat(store.read(new TopologyFingerprint(MACHINE.fingerprint()), StoredCheckpoints.CONFIG_HASH))
                .isInstanceOf(CheckpointRead.Missing.class);
    }

    @Test
    void everyCutOfEveryStoredFileIsTruncatedNeverAnotherState() throws IOException {
        // A write cut short outside the agent's protocol (a copy, a restore from backup, a full disk) may end at
        // any byte; each such file must say so, not read as a smaller state.
        List<String> other = new ArrayList<>();
        int cuts = 0;
        for (Stored s : StoredCheckpoints.ALL) {
            byte[] full = CheckpointCompatibilityTest.resource(s.resource());
            TopologyFingerprint fingerprint = new TopologyFingerprint(s.fingerprint());
            for (int length = 0; length < full.length; length++) {
                cuts++;
                byte[] cut = Arrays.copyOf(full, length);
                CheckpointFormatException e = catchThrowableOfType(
                        CheckpointFormatException.class, () -> CheckpointCodec.decode(cut, fingerprint));
                if (e == null || e.reason() != RejectReason.TRUNCATED) {
                    other.add(s.file() + " cut to " + length + " bytes: "
                            + (e == null ? "loaded" : e.reason() + " " + e.getMessage()));
                }
            }
        }
        assertThat(other).as("of %d cuts", cuts).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "first      | MALFORMED | not valid JSON: Unrecognized token 'first': was expecting (JSON String,"
                        + " Number, Array, Object or token 'null', 'true' or 'false') (line 1, column 6)",
                "`{\"a\":}` | MALFORMED | not valid JSON: Unexpected character ('}' (code 125)): expected a value"
                        + " (line 1, column 6)",
                "`{\"a\":1` | TRUNCATED | the JSON ends early at byte 6: Unexpected end-of-input: expected close"
                        + " marker for Object (start marker at [Source: REDACTED"
                        + " (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 1])",
                "`{\"a\":1,` | TRUNCATED | the JSON ends early at byte 7: Unexpected end-of-input within/between"
                        + " Object entries",
            })
    void onlyAnEndInsideTheJsonIsTruncatedNotABadTokenThatEndsTheFile(
            String text, RejectReason reason, String message) {
        CheckpointFormatException e = catchThrowableOfType(
                CheckpointFormatException.class,
                () -> CheckpointCodec.decode(
                        text.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                        new TopologyFingerprint(MACHINE.fingerprint())));
        assertThat(e).as(text).isNotNull();
        assertThat(e.reason()).as(text).isEqualTo(reason);
        assertThat(e.getMessage()).isEqualTo(message);
    }

    @Test
    void everyStoredRejectedFileHasItsCase() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("src/test/resources/checkpoint/rejected"))) {
            assertThat(files.map(f -> "rejected/" + f.getFileName()))
                    .containsExactlyInAnyOrderElementsOf(cases().map(Case::file)
                            .filter(f -> f.startsWith("rejected/"))
                            .toList());
        }
    }
}
