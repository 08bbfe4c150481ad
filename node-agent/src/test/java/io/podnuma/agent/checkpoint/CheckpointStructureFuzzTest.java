package io.podnuma.agent.checkpoint;

import static io.podnuma.agent.checkpoint.CheckpointFixtures.ALLOCATOR;
import static io.podnuma.agent.checkpoint.CheckpointFixtures.CONFIG_HASH;
import static io.podnuma.agent.checkpoint.CheckpointFixtures.FINGERPRINT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.state.NodeStateCodec;
import io.podnuma.agent.testing.Seeds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded mutations of a checkpoint's JSON tree, with the checksum recomputed so the change gets past it, as a
 * buggy writer or a hand edit would: a value of the wrong JSON type, a different value of the right type, a
 * future or past version, an added or removed field. Each file is either rejected with a reason and moved aside
 * byte-identical, or loaded with exactly the state the file describes: never a state the decoder made up by
 * coercing a type, skipping a field or folding duplicates. A value changed within its type that still parses is
 * refused when the state no longer fits the node ({@code NodeAllocator.validate}); the refused and loaded ones are
 * printed by field.
 */
class CheckpointStructureFuzzTest {

    /** About 7 ms each; {@code -Dpodnuma.cases=N} runs more. */
    private static final int MUTATIONS = Integer.getInteger("podnuma.cases", 1000);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final List<String> CPU_LIST_FIELDS = List.of("sharedPool", "bubble", "podSharedPool", "cpus");
    private static final List<String> WORDS = List.of(
            "",
            "x",
            "0",
            "-1",
            "Guaranteed",
            "Burstable",
            "BestEffort",
            "pod-level",
            "pod",
            "container",
            "app",
            "init",
            "sidecar",
            "exclusive",
            "pod-shared",
            "shared",
            "memory",
            "hugepages-2Mi",
            "hugepages-1Gi",
            "default",
            "sha256:" + "0".repeat(64),
            CheckpointCodec.KIND,
            "1073741824");

    private enum Kind {
        WRONG_TYPE,
        TAMPER,
        VERSION,
        STATE_VERSION,
        ADD_FIELD,
        REMOVE_FIELD
    }

    /** Where a node sits: its parent and its key or index. */
    private record Slot(JsonNode parent, String key, int index, String path) {
        JsonNode get() {
            return key != null ? parent.get(key) : parent.get(index);
        }

        void set(JsonNode value) {
            if (key != null) {
                ((ObjectNode) parent).set(key, value);
            } else {
                ((ArrayNode) parent).set(index, value);
            }
        }
    }

    @TempDir
    Path dir;

    @Test
    void everyStructuralChangeIsRejectedOrLoadsExactlyWhatTheFileSays() throws IOException {
        long seed = Seeds.announce(getClass().getSimpleName());
        Random rnd = new Random(seed);
        Checkpoint original = CheckpointFixtures.checkpoint();
        ObjectNode valid = (ObjectNode) JSON.readTree(CheckpointCodec.encode(original));
        CheckpointStore store = new CheckpointStore(
                dir,
                CheckpointStore.DEFAULT_FILE_NAME,
                Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC),
                temp -> {});
        Path file = store.file();
        Map<String, Integer> outcomes = new TreeMap<>();
        // Same-type changes of one value, by field: refused as not fitting the node, or loaded (a valid state).
        Map<String, Integer> tamperRefused = new TreeMap<>();
        Map<String, Integer> tamperLoaded = new TreeMap<>();
        for (int i = 0; i < MUTATIONS; i++) {
            Kind kind = Kind.values()[rnd.nextInt(Kind.values().length)];
            ObjectNode envelope = valid.deepCopy();
            String change = mutate(rnd, kind, envelope);
            envelope.remove("checksum");
            envelope.put("checksum", CheckpointCodec.checksum(envelope));
            byte[] bytes = JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(envelope);
            Files.write(file, bytes);
            String what = "seed " + seed + " mutation " + i + " (" + change + ")";
            CheckpointRead read;
            try {
                read = store.read(FINGERPRINT, CONFIG_HASH, ALLOCATOR::validate);
            } catch (RuntimeException e) {
                throw new AssertionError(what + " threw " + e, e);
            }
            switch (read) {
                case CheckpointRead.Rejected r -> {
                    assertThat(r.message()).as(what).startsWith("checkpoint " + file + ": ");
                    assertThat(file).as(what).doesNotExist();
                    assertThat(Files.readAllBytes(r.movedTo())).as(what).isEqualTo(bytes);
                    Files.delete(r.movedTo());
                    switch (kind) {
                        case VERSION -> assertThat(r.reason()).as(what).isEqualTo(RejectReason.UNSUPPORTED_VERSION);
                        case STATE_VERSION -> assertThat(r.reason()).as(what).isEqualTo(RejectReason.BAD_STATE);
                        default -> {}
                    }
                    outcomes.merge(kind + " rejected " + r.reason(), 1, Integer::sum);
                    if (kind == Kind.TAMPER && r.reason() == RejectReason.INCONSISTENT_STATE) {
                        tamperRefused.merge(field(change), 1, Integer::sum);
                    }
                }
                case CheckpointRead.Loaded l -> {
                    if (kind == Kind.WRONG_TYPE || kind == Kind.VERSION || kind == Kind.STATE_VERSION) {
                        fail(what + ": loaded although the file is not a valid checkpoint:\n"
                                + envelope.toPrettyString());
                    }
                    ObjectNode loaded = loadedAsJson(l.checkpoint());
                    ObjectNode inFile = withoutChecksum(envelope);
                    assertThat(CheckpointCodec.checksum(loaded))
                            .as(
                                    "%s: the loaded state is exactly what the file says%nloaded: %s%nfile:   %s",
                                    what, loaded, inFile)
                            .isEqualTo(CheckpointCodec.checksum(inFile));
                    assertThat(file).as(what).exists();
                    outcomes.merge(kind + " loaded", 1, Integer::sum);
                    if (kind == Kind.TAMPER) {
                        tamperLoaded.merge(field(change), 1, Integer::sum);
                    }
                }
                case CheckpointRead.Missing m -> fail(what + ": an existing file read as missing");
            }
        }
        System.out.println(getClass().getSimpleName() + ": " + MUTATIONS + " mutations: " + outcomes);
        System.out.println(getClass().getSimpleName() + ": tampered values refused as inconsistent by field "
                + tamperRefused + "; loaded by field " + tamperLoaded);
        for (Kind k : Kind.values()) {
            assertThat(outcomes.keySet()).as("every kind of change was tried").anyMatch(o -> o.startsWith(k + " "));
        }
        assertThat(tamperRefused.keySet())
                .as("a tampered pod field that parses is refused because the state does not fit the node")
                .anyMatch(f -> f.startsWith("state.pods[]."));
        assertThat(outcomes.keySet())
                .as("some same-type changes still describe a valid state and load")
                .anyMatch(o -> o.endsWith("loaded"));
    }

    private static String mutate(Random rnd, Kind kind, ObjectNode envelope) {
        switch (kind) {
            case VERSION -> {
                int v = rnd.nextBoolean()
                        ? CheckpointCodec.VERSION + 1 + rnd.nextInt(1000)
                        : CheckpointMigrations.OLDEST - 1 - rnd.nextInt(3);
                envelope.put("version", v);
                return "version " + v;
            }
            case STATE_VERSION -> {
                int v = NodeStateCodec.VERSION + 1 + rnd.nextInt(5);
                ((ObjectNode) envelope.get("state")).put("version", v);
                return "state.version " + v;
            }
            default -> {}
        }
        List<Slot> slots = new ArrayList<>();
        collect(envelope, "", slots);
        slots.removeIf(s -> s.path().equals("checksum"));
        if (kind == Kind.ADD_FIELD || kind == Kind.REMOVE_FIELD) {
            Map<String, ObjectNode> objects = new TreeMap<>();
            objects.put("(envelope)", envelope);
            for (Slot s : slots) {
                if (s.get() instanceof ObjectNode o && (kind == Kind.ADD_FIELD || !o.isEmpty())) {
                    objects.put(s.path(), o);
                }
            }
            List<String> paths = new ArrayList<>(objects.keySet());
            String path = paths.get(rnd.nextInt(paths.size()));
            ObjectNode o = objects.get(path);
            if (kind == Kind.ADD_FIELD) {
                String name = rnd.nextBoolean() ? "extra" : Integer.toString(rnd.nextInt(4));
                o.set(name, rnd.nextBoolean() ? F.numberNode(rnd.nextInt(3)) : F.textNode("x"));
                return "added " + path + "." + name;
            }
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            names.remove("checksum");
            String name = names.get(rnd.nextInt(names.size()));
            o.remove(name);
            return "removed " + path + "." + name;
        }
        Slot s = slots.get(rnd.nextInt(slots.size()));
        JsonNode old = s.get();
        JsonNode replacement = kind == Kind.WRONG_TYPE ? otherType(rnd, old) : sameType(rnd, s, old);
        s.set(replacement);
        return s.path() + ": " + old + " -> " + replacement;
    }

    /** The field a TAMPER change hit, indexes dropped: {@code state.pods[].containers[].kind}. */
    private static String field(String change) {
        return change.substring(0, change.indexOf(": ")).replaceAll("\\[\\d+\\]", "[]");
    }

    private static void collect(JsonNode node, String path, List<Slot> out) {
        if (node.isObject()) {
            node.fieldNames().forEachRemaining(k -> {
                String p = path.isEmpty() ? k : path + "." + k;
                out.add(new Slot(node, k, -1, p));
                collect(node.get(k), p, out);
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String p = path + "[" + i + "]";
                out.add(new Slot(node, null, i, p));
                collect(node.get(i), p, out);
            }
        }
    }

    /** A value of another JSON type, including look-alikes a lenient reader would coerce ("2" for 2, 2.0). */
    private static JsonNode otherType(Random rnd, JsonNode old) {
        List<JsonNode> candidates = new ArrayList<>();
        if (old.isNumber()) {
            candidates.add(F.textNode(old.asText()));
            candidates.add(F.numberNode(old.asDouble() + 0.5));
            candidates.add(F.numberNode(old.asDouble()));
        }
        if (old.isTextual()) {
            try {
                candidates.add(F.numberNode(Long.parseLong(old.textValue())));
            } catch (NumberFormatException e) {
                candidates.add(F.numberNode(rnd.nextInt(100)));
            }
            candidates.add(F.arrayNode().add(old.textValue()));
        }
        if (old.isContainerNode()) {
            candidates.add(old.isArray() ? F.objectNode() : F.arrayNode());
            candidates.add(F.textNode(old.toString()));
        }
        if (!old.isBoolean()) {
            candidates.add(F.booleanNode(rnd.nextBoolean()));
        }
        candidates.add(F.nullNode());
        if (!old.isTextual()) {
            candidates.add(F.textNode("x"));
        }
        return candidates.get(rnd.nextInt(candidates.size()));
    }

    /** A different value of the same JSON type; CPU lists stay in the canonical list syntax. */
    private static JsonNode sameType(Random rnd, Slot slot, JsonNode old) {
        if (old.isTextual()) {
            if (slot.key() != null && CPU_LIST_FIELDS.contains(slot.key())) {
                CpuSet.Builder b = CpuSet.builder();
                int n = rnd.nextInt(5);
                for (int k = 0; k < n; k++) {
                    b.add(rnd.nextInt(20));
                }
                return F.textNode(b.build().toString());
            }
            return F.textNode(WORDS.get(rnd.nextInt(WORDS.size())));
        }
        if (old.isIntegralNumber()) {
            long v = old.asLong();
            long[] choices = {v + 1, v - 1, 0, -1, 1, 2, 3, v * 2, Integer.MAX_VALUE + 1L, v + (1L << 20)};
            return F.numberNode(choices[rnd.nextInt(choices.length)]);
        }
        if (old.isArray()) {
            ArrayNode a = old.deepCopy();
            if (!a.isEmpty() && rnd.nextBoolean()) {
                a.remove(rnd.nextInt(a.size()));
            } else if (!a.isEmpty()) {
                a.add(a.get(rnd.nextInt(a.size())).deepCopy());
            }
            return a;
        }
        if (old.isObject()) {
            return F.objectNode();
        }
        return old;
    }

    /** The loaded checkpoint as the JSON the file should hold, minus the checksum. */
    private static ObjectNode loadedAsJson(Checkpoint c) throws IOException {
        return withoutChecksum((ObjectNode) JSON.readTree(CheckpointCodec.encode(c)));
    }

    private static ObjectNode withoutChecksum(ObjectNode envelope) {
        ObjectNode copy = envelope.deepCopy();
        copy.remove("checksum");
        // The pods of a state are keyed by uid; their order in the file is not part of the state.
        JsonNode pods = copy.path("state").path("pods");
        if (pods.isArray()) {
            List<JsonNode> sorted = new ArrayList<>();
            pods.forEach(sorted::add);
            sorted.sort(Comparator.comparing(p -> p.path("uid").asText()));
            ArrayNode a = ((ObjectNode) copy.get("state")).putArray("pods");
            sorted.forEach(a::add);
        }
        return copy;
    }
}
