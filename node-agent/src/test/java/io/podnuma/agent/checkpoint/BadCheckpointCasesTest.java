package io.podnuma.agent.checkpoint;

import static io.podnuma.agent.checkpoint.CheckpointFixtures.ALLOCATOR;
import static io.podnuma.agent.checkpoint.CheckpointFixtures.CONFIG_HASH;
import static io.podnuma.agent.checkpoint.CheckpointFixtures.FINGERPRINT;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podnuma.agent.engine.machine.TestTopologies;
import io.podnuma.testkit.badinput.BadInput;
import io.podnuma.testkit.badinput.BadInputDoc;
import io.podnuma.testkit.badinput.InputKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue's checkpoint files, read by the store as the agent reads its own at start (with the allocator's
 * check of the state): each is refused with its Event reason and message, and moved aside byte for byte, so nothing
 * is lost and the agent rebuilds from the running pods. Messages name the file as {@code /var/lib/podnuma}'s.
 */
class BadCheckpointCasesTest {

    private static final InputKind KIND = InputKind.CHECKPOINT;
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T17:30:05.123Z"), ZoneOffset.UTC);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ASIDE = "node-state.json.corrupt-20261129T173005.123Z";
    private static final String KEPT = "the file moved aside byte for byte to " + ASIDE
            + "; the agent rebuilds from the running pods and the CPUs their containers hold";
    private static final Map<String, UnaryOperator<byte[]>> EDITS = new HashMap<>();

    @TempDir
    Path dir;

    static List<BadInput> cases() {
        return List.of(
                bytes(
                        "ck-empty",
                        "an empty file",
                        b -> new byte[0],
                        "CheckpointTruncated: checkpoint /var/lib/podnuma/node-state.json: the file is empty"),
                bytes(
                        "ck-truncated",
                        "cut in the middle of a write",
                        b -> Arrays.copyOf(b, 200),
                        "CheckpointTruncated: checkpoint /var/lib/podnuma/node-state.json: the JSON ends early at byte 200: Unexpected end-of-input in VALUE_STRING"),
                bytes(
                        "ck-not-json",
                        "text that is not JSON",
                        b -> "node state: fine".getBytes(StandardCharsets.UTF_8),
                        "CheckpointMalformed: checkpoint /var/lib/podnuma/node-state.json: not valid JSON: Unrecognized token 'node': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false') (line 1, column 6)"),
                bytes(
                        "ck-binary",
                        "binary garbage",
                        b -> new byte[] {0, 1, 2, (byte) 0xff, '{'},
                        "CheckpointMalformed: checkpoint /var/lib/podnuma/node-state.json: not valid JSON: Illegal character ((CTRL-CHAR, code 1)): only regular white space (\\r, \\n, \\t) is allowed between tokens (line 1, column 2)"),
                bytes(
                        "ck-bad-utf8",
                        "invalid UTF-8 in a key",
                        b -> new byte[] {'{', '"', (byte) 0xC3, (byte) 0x28, '"', ':', '1', '}'},
                        "CheckpointMalformed: checkpoint /var/lib/podnuma/node-state.json: not valid JSON: Invalid UTF-8 middle byte 0xffffc328 (line 1, column 6)"),
                bytes(
                        "ck-array",
                        "a JSON array",
                        b -> "[1, 2]".getBytes(StandardCharsets.UTF_8),
                        "CheckpointMalformed: checkpoint /var/lib/podnuma/node-state.json: expected a JSON object with kind, version, topology, config, checksum and state, got array"),
                bytes(
                        "ck-trailing",
                        "a second JSON value after the checkpoint",
                        b -> concat(b, " {}"),
                        "CheckpointMalformed: checkpoint /var/lib/podnuma/node-state.json: not valid JSON: Trailing token (of type START_OBJECT) found after value (bound as `com.fasterxml.jackson.databind.JsonNode`): not allowed as per `DeserializationFeature.FAIL_ON_TRAILING_TOKENS` (line 79, column 3)"),
                bytes(
                        "ck-wrong-kind",
                        "another kind of JSON object",
                        b -> "{\"kind\": \"v1/ConfigMap\"}".getBytes(StandardCharsets.UTF_8),
                        "CheckpointMalformed: checkpoint /var/lib/podnuma/node-state.json: kind is \"v1/ConfigMap\", expected \"podnuma.io/node-checkpoint\": not a podnuma checkpoint"),
                text(
                        "ck-version-future",
                        "a version a newer agent wrote",
                        t -> t.replace("\"version\" : 1,\n  \"topology\"", "\"version\" : 2,\n  \"topology\""),
                        "CheckpointUnsupportedVersion: checkpoint /var/lib/podnuma/node-state.json: version 2 is not supported: this agent reads versions 1..1 (a newer agent wrote it?)"),
                text(
                        "ck-version-string",
                        "the version as a string",
                        t -> t.replace("\"version\" : 1,\n  \"topology\"", "\"version\" : \"1\",\n  \"topology\""),
                        "CheckpointUnsupportedVersion: checkpoint /var/lib/podnuma/node-state.json: version is \"1\", expected an integer 1..1"),
                text(
                        "ck-flipped-byte",
                        "one byte changed after writing",
                        t -> t.replace("\"name\" : \"bubble\"", "\"name\" : \"btbble\""),
                        "CheckpointChecksumMismatch: checkpoint /var/lib/podnuma/node-state.json: checksum sha256:0b69e699587cdd3de967934848c0786025ffdc665e1c30205572591a45d491bc does not match the content (sha256:01bae181bbca5fa0ab123260d679420b12c842594687af2acd61755b664cb1de): the file changed after it was written"),
                text(
                        "ck-wrong-checksum",
                        "a checksum that is not the content's",
                        t -> t.replaceAll(
                                "\"checksum\" : \"sha256:[0-9a-f]+\"",
                                "\"checksum\" : \"sha256:" + "0".repeat(64) + "\""),
                        "CheckpointChecksumMismatch: checkpoint /var/lib/podnuma/node-state.json: checksum sha256:0000000000000000000000000000000000000000000000000000000000000000 does not match the content (sha256:0b69e699587cdd3de967934848c0786025ffdc665e1c30205572591a45d491bc): the file changed after it was written"),
                text(
                        "ck-checksum-not-sha",
                        "a checksum that is no sha256",
                        t -> t.replaceAll("\"checksum\" : \"sha256:[0-9a-f]+\"", "\"checksum\" : \"md5:abc\""),
                        "CheckpointChecksumMismatch: checkpoint /var/lib/podnuma/node-state.json: checksum md5:abc does not match the content (sha256:0b69e699587cdd3de967934848c0786025ffdc665e1c30205572591a45d491bc): the file changed after it was written"),
                envelope(
                        "ck-unknown-field",
                        "a field the format does not have",
                        e -> e.put("owner", "someone"),
                        "CheckpointMalformed: checkpoint /var/lib/podnuma/node-state.json: field \"owner\" is not part of checkpoint version 1: allowed kind, version, topology, config, checksum, state"),
                envelope(
                        "ck-missing-state",
                        "no state",
                        e -> e.remove("state"),
                        "CheckpointMalformed: checkpoint /var/lib/podnuma/node-state.json: state must be an object (the node state), got nothing (the field is missing)"),
                envelope(
                        "ck-missing-topology",
                        "no topology",
                        e -> e.remove("topology"),
                        "CheckpointMalformed: checkpoint /var/lib/podnuma/node-state.json: topology must be a string, got nothing (the field is missing)"),
                envelope(
                        "ck-state-string",
                        "the state a string",
                        e -> e.put("state", "none"),
                        "CheckpointMalformed: checkpoint /var/lib/podnuma/node-state.json: state must be an object (the node state), got \"none\""),
                envelope(
                        "ck-bad-qos",
                        "an unknown QoS class under a valid checksum",
                        e -> pod(e).put("qos", "Platinum"),
                        "CheckpointBadState: checkpoint /var/lib/podnuma/node-state.json: state: pods[0].qos \"Platinum\": allowed Guaranteed, Burstable, BestEffort"),
                envelope(
                        "ck-unknown-pod-field",
                        "a pod field the format does not have",
                        e -> pod(e).put("priority", 5),
                        "CheckpointBadState: checkpoint /var/lib/podnuma/node-state.json: state: pods[0].priority is not a field of node state version 1: allowed uid, namespace, name, qos, placement, numaAffinity, bubble, podSharedPool, memory, containers"),
                envelope(
                        "ck-repeated-numa",
                        "a NUMA node listed twice",
                        e -> pod(e).withArray("numaAffinity").add(0),
                        "CheckpointBadState: checkpoint /var/lib/podnuma/node-state.json: state: pods[0].numaAffinity [0,0]: NUMA node ids must be ascending without repeats"),
                envelope(
                        "ck-overlapping-cpus",
                        "two pods on one exclusive CPU",
                        BadCheckpointCasesTest::overlap,
                        "CheckpointInconsistentState: checkpoint /var/lib/podnuma/node-state.json: the state does not fit this node: pod default/plain (uid uid-plain) container app: cpus is \"2,8\", expected CPUs of NUMA node {1}, the pod's numaAffinity, only, under single-numa-node"),
                new BadInput(
                        "ck-other-machine",
                        KIND,
                        "written on another CPU layout",
                        "the fixture's checkpoint, read on a machine without SMT",
                        List.of(
                                "CheckpointTopologyMismatch: checkpoint /var/lib/podnuma/node-state.json: taken on topology sha256:b3b7029ccd133f6beacbc4f089c5f0ec8d63026f4d8019f58699b030bedcfae2 but this machine is sha256:3bdb8c0c147310bf0956a72ce286ce0c6a3da19aceb4edb5c5757d302685c25c: CPUs, NUMA nodes or their layout changed since"),
                        KEPT));
    }

    private static byte[] concat(byte[] b, String tail) {
        byte[] t = tail.getBytes(StandardCharsets.UTF_8);
        byte[] out = Arrays.copyOf(b, b.length + t.length);
        System.arraycopy(t, 0, out, b.length, t.length);
        return out;
    }

    private static ObjectNode pod(ObjectNode envelope) {
        return (ObjectNode) envelope.get("state").get("pods").get(0);
    }

    /** The second pod's first container recorded on the first pod's exclusive CPUs. */
    private static void overlap(ObjectNode e) {
        ObjectNode first = (ObjectNode) e.get("state").get("pods").get(0);
        ObjectNode second = (ObjectNode) e.get("state").get("pods").get(1);
        String cpus = exclusiveOf(first);
        for (var c : second.withArray("containers")) {
            if (c.has("kind") && c.get("kind").asText().equals("exclusive")) {
                ((ObjectNode) c).put("cpus", cpus);
            }
        }
    }

    private static String exclusiveOf(ObjectNode pod) {
        for (var c : pod.withArray("containers")) {
            if (c.has("kind") && c.get("kind").asText().equals("exclusive")) {
                return c.get("cpus").asText();
            }
        }
        throw new IllegalStateException("the fixture's first pod has no exclusive container: " + pod);
    }

    private static BadInput bytes(String id, String wrong, UnaryOperator<byte[]> edit, String... answer) {
        EDITS.put(id, edit);
        return new BadInput(id, KIND, wrong, "the fixture's checkpoint, edited", List.of(answer), KEPT);
    }

    private static BadInput text(String id, String wrong, UnaryOperator<String> edit, String... answer) {
        return bytes(
                id,
                wrong,
                b -> edit.apply(new String(b, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8),
                answer);
    }

    /** An edit of the envelope written back with a checksum that matches it, as a buggy writer might. */
    private static BadInput envelope(
            String id, String wrong, java.util.function.Consumer<ObjectNode> edit, String... answer) {
        return bytes(
                id,
                wrong,
                b -> {
                    try {
                        ObjectNode e = (ObjectNode) JSON.readTree(b);
                        edit.accept(e);
                        e.remove("checksum");
                        e.put("checksum", CheckpointCodec.checksum(e));
                        return JSON.writeValueAsBytes(e);
                    } catch (IOException ex) {
                        throw new UncheckedIOException(ex);
                    }
                },
                answer);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void theStoreAnswersExactlyAndKeepsTheFile(BadInput c) throws IOException {
        CheckpointStore store = new CheckpointStore(dir, CheckpointStore.DEFAULT_FILE_NAME, CLOCK, temp -> {});
        store.write(CheckpointFixtures.checkpoint());
        Path file = dir.resolve(CheckpointStore.DEFAULT_FILE_NAME);
        TopologyFingerprint machine = FINGERPRINT;
        if (EDITS.containsKey(c.id())) {
            Files.write(file, EDITS.get(c.id()).apply(Files.readAllBytes(file)));
        } else {
            machine = TopologyFingerprint.of(TestTopologies.DUAL_SOCKET_NO_HT);
        }
        byte[] bad = Files.readAllBytes(file);

        CheckpointRead read = store.read(machine, CONFIG_HASH, ALLOCATOR::validate);

        assertThat(read).isInstanceOf(CheckpointRead.Rejected.class);
        CheckpointRead.Rejected r = (CheckpointRead.Rejected) read;
        c.assertAnswer(
                List.of(r.reason().eventReason() + ": " + r.message().replace(dir.toString(), "/var/lib/podnuma")));
        assertThat(r.movedTo()).isEqualTo(dir.resolve(ASIDE));
        assertThat(Files.readAllBytes(r.movedTo()))
                .as("moved aside byte for byte")
                .isEqualTo(bad);
        try (Stream<Path> s = Files.list(dir)) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactly(ASIDE);
        }
        assertThat(read.stateOr(ALLOCATOR.initialState())).isEqualTo(ALLOCATOR.initialState());
    }

    @Test
    void theDocIsUpToDate() {
        assertThat(BadInputDoc.check(KIND, cases(), "node-agent", getClass().getSimpleName()))
                .isNull();
    }
}
