package io.podnuma.agent.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.podnuma.agent.checkpoint.StoredCheckpoints.Stored;
import io.podnuma.agent.engine.node.NodeAllocator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Agent N+1 reads what agent N left on the node: every checkpoint file in {@link StoredCheckpoints} (one directory
 * per format version ever written, {@code src/test/resources/checkpoint/v<N>/}) is read with the current code and
 * must give exactly the state written out there, and the current writer must still write the current version's
 * files byte for byte, so a change of the format cannot slip in without a new version and stored files.
 */
class CheckpointCompatibilityTest {

    /** {@code -Dpodnuma.checkpoint.store=true}: write the current version's files that are not stored yet. */
    static final String STORE_PROPERTY = "podnuma.checkpoint.store";

    /** Relative to the module (surefire's working directory). */
    private static final Path STORED_DIR = Path.of("src/test/resources/checkpoint");

    private static final String RULE = "Stored checkpoint files are never edited or regenerated. If the format"
            + " change is on purpose, it is a new checkpoint version: bump CheckpointCodec.VERSION (also when only"
            + " the state part changed; then NodeStateCodec.VERSION too), add the step from the old version to"
            + " CheckpointMigrations, keep every stored file of the old version as it is (with its expected state in"
            + " StoredCheckpoints), add the new version's cases to StoredCheckpoints and store their files with"
            + " ./mvnw -B -ntp -pl node-agent -am test -Dtest=CheckpointCompatibilityTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -D" + STORE_PROPERTY + "=true. If it is not on purpose, the"
            + " writer has a bug.";

    @TempDir
    Path dir;

    static Stream<Stored> stored() {
        return StoredCheckpoints.ALL.stream();
    }

    static Stream<Stored> currentVersion() {
        return stored().filter(s -> s.version() == CheckpointCodec.VERSION);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stored")
    void everyStoredFileRestoresExactlyItsState(Stored s) throws IOException {
        assertThat(TopologyFingerprint.of(s.machine()).value())
                .as(
                        "the topology fingerprint of %s changed: every node would set its checkpoint aside on upgrade;"
                                + " keep the algorithm, or handle the old fingerprint in a migration step",
                        s)
                .isEqualTo(s.fingerprint());
        Files.write(dir.resolve(CheckpointStore.DEFAULT_FILE_NAME), resource(s.resource()));
        NodeAllocator allocator = NodeAllocator.create(s.machine(), s.config());

        CheckpointRead read = new CheckpointStore(dir)
                .read(new TopologyFingerprint(s.fingerprint()), StoredCheckpoints.CONFIG_HASH, allocator::validate);

        assertThat(read).as("%s", s).isInstanceOf(CheckpointRead.Loaded.class);
        CheckpointRead.Loaded loaded = (CheckpointRead.Loaded) read;
        assertThat(loaded.configChanged()).isFalse();
        assertThat(loaded.checkpoint().topology().value()).isEqualTo(s.fingerprint());
        assertThat(loaded.checkpoint().configHash()).isEqualTo(StoredCheckpoints.CONFIG_HASH);
        assertThat(loaded.checkpoint().state()).as("%s", s).isEqualTo(s.state());
        // What the agent itself runs at start (production check), besides the tests' full oracle above.
        assertThat(allocator.validateAssignments(loaded.checkpoint().state())).isEqualTo(s.state());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("currentVersion")
    void theWriterStillWritesEveryStoredFileOfTheCurrentVersionByteForByte(Stored s) throws IOException {
        String written = new String(CheckpointCodec.encode(s.checkpoint()), StandardCharsets.UTF_8);
        Path file = STORED_DIR.resolve("v" + s.version()).resolve(s.file());
        if (CheckpointCompatibilityTest.class.getResource(s.resource()) == null) {
            if (Boolean.getBoolean(STORE_PROPERTY)) {
                Files.createDirectories(file.getParent());
                Files.writeString(file, written, StandardCharsets.UTF_8);
                fail("stored " + file.toAbsolutePath() + " for " + s + ": review it, commit it and run again without -D"
                        + STORE_PROPERTY);
            }
            fail(file + " is not stored yet: " + RULE);
        }
        assertThat(written)
                .as("the current writer no longer writes %s byte for byte. %s", s, RULE)
                .isEqualTo(new String(resource(s.resource()), StandardCharsets.UTF_8));
    }

    @Test
    void everyVersionStillReadHasStoredFilesAndEveryStoredFileIsPinned() throws IOException {
        Pattern versionDir = Pattern.compile("v([1-9][0-9]*)");
        Set<Integer> versions = new TreeSet<>();
        Set<String> files = new TreeSet<>();
        try (Stream<Path> dirs = Files.list(STORED_DIR)) {
            for (Path d : dirs.toList()) {
                Matcher m = versionDir.matcher(d.getFileName().toString());
                if (!m.matches()) {
                    continue;
                }
                versions.add(Integer.parseInt(m.group(1)));
                try (Stream<Path> inside = Files.list(d)) {
                    inside.forEach(f -> files.add(d.getFileName() + "/" + f.getFileName()));
                }
            }
        }
        assertThat(versions)
                .as(
                        "checkpoint versions with stored files under %s: there must be one directory for every version"
                                + " read (%d..%d), none for versions this agent does not read. %s",
                        STORED_DIR, CheckpointMigrations.OLDEST, CheckpointCodec.VERSION, RULE)
                .containsExactlyElementsOf(IntStream.rangeClosed(CheckpointMigrations.OLDEST, CheckpointCodec.VERSION)
                        .boxed()
                        .toList());
        assertThat(files)
                .as("every stored file has its expected state in StoredCheckpoints, and every case there its file")
                .containsExactlyInAnyOrderElementsOf(
                        stored().map(s -> "v" + s.version() + "/" + s.file()).toList());
        for (Stored s : StoredCheckpoints.ALL) {
            assertThat(new ObjectMapper()
                            .readTree(resource(s.resource()))
                            .get("version")
                            .intValue())
                    .as("the version written in %s", s)
                    .isEqualTo(s.version());
        }
        assertThat(currentVersion().toList())
                .as("the current version %d has stored files", CheckpointCodec.VERSION)
                .isNotEmpty();
    }

    @Test
    void theStoredShapesCoverEveryKindOfEntryTheFormatHas() {
        // What the format can say and where the stored files say it; a shape nobody stored is not pinned.
        List<String> seen = stored().flatMap(s -> s.state().pods().values().stream())
                .flatMap(p -> Stream.concat(
                        Stream.of(
                                "qos " + p.qos().wireName(),
                                "placement " + p.placement().wireName(),
                                "affinity of " + p.numaAffinity().count() + " nodes"),
                        Stream.concat(
                                p.containers().stream()
                                        .flatMap(c -> Stream.of(
                                                "type " + c.type().wireName(),
                                                "kind " + c.kind().wireName())),
                                Stream.concat(
                                                p.podMemory().stream(),
                                                p.containers().stream().flatMap(c -> c.memory().stream()))
                                        .flatMap(b -> Stream.of(
                                                "memory " + b.resource().resourceName(),
                                                "block on " + b.nodes().count() + " nodes")))))
                .distinct()
                .toList();
        assertThat(seen)
                .contains(
                        "qos Guaranteed",
                        "qos BestEffort",
                        "placement pod-level",
                        "placement pod",
                        "placement container",
                        "affinity of 0 nodes",
                        "affinity of 1 nodes",
                        "affinity of 2 nodes",
                        "type init",
                        "type sidecar",
                        "type app",
                        "type ephemeral",
                        "kind exclusive",
                        "kind pod-shared",
                        "kind node-shared",
                        "memory memory",
                        "memory hugepages-2Mi",
                        "memory hugepages-1Gi",
                        "block on 1 nodes",
                        "block on 2 nodes");
        assertThat(stored().filter(s -> s.state().pods().isEmpty()))
                .as("an empty node")
                .isNotEmpty();
        assertThat(stored().filter(s -> !s.machine().offlineCpus().isEmpty()))
                .as("a machine with offline CPUs")
                .isNotEmpty();
    }

    static byte[] resource(String name) throws IOException {
        try (InputStream in = CheckpointCompatibilityTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        }
    }
}
