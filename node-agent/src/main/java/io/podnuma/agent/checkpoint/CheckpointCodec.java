package io.podnuma.agent.checkpoint;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.state.NodeStateCodec;
import io.podnuma.agent.state.NodeStateFormatException;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * The checkpoint file format: a JSON envelope around the {@link NodeStateCodec} payload.
 *
 * <pre>
 * {"kind": "podnuma.io/node-checkpoint", "version": 1, "topology": "sha256:..", "config": "..",
 *  "checksum": "sha256:..", "state": { node state, its own "version" }}
 * </pre>
 *
 * <p>The checksum is the SHA-256 of the canonical form of every other field (the envelope without
 * {@code checksum}, object keys sorted at every level, no whitespace, UTF-8), so topology and config are
 * covered too and a formatting change (indentation) does not matter.
 */
public final class CheckpointCodec {

    public static final String KIND = "podnuma.io/node-checkpoint";

    /** The envelope version this code writes. */
    public static final int VERSION = 1;

    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(SerializationFeature.INDENT_OUTPUT);

    private static final ObjectMapper COMPACT = new ObjectMapper();

    private static final List<String> FIELDS = List.of("kind", "version", "topology", "config", "checksum", "state");

    private CheckpointCodec() {}

    public static byte[] encode(Checkpoint c) {
        ObjectNode out = JSON.createObjectNode();
        out.put("kind", KIND);
        out.put("version", VERSION);
        out.put("topology", c.topology().value());
        out.put("config", c.configHash());
        out.set("state", NodeStateCodec.toJson(c.state()));
        // The checksum covers the fields above; the key order of the file does not matter to it.
        out.put("checksum", checksum(out));
        // Written before the state so a reader (or a person) sees the header first.
        out.set("state", out.remove("state"));
        try {
            return JSON.writeValueAsBytes(out);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the checkpoint as JSON: " + e.getMessage(), e);
        }
    }

    /**
     * Reads and checks a checkpoint taken on {@code expected}.
     *
     * @throws CheckpointFormatException with the reason and a message that names the field and value
     */
    public static Checkpoint decode(byte[] bytes, TopologyFingerprint expected) throws CheckpointFormatException {
        ObjectNode envelope = parse(bytes);
        JsonNode kind = envelope.get("kind");
        if (kind == null || !KIND.equals(kind.textValue())) {
            throw new CheckpointFormatException(
                    RejectReason.MALFORMED,
                    "kind is " + shown(kind) + ", expected \"" + KIND + "\": not a podnuma checkpoint");
        }
        JsonNode v = envelope.get("version");
        if (v == null || !v.isInt()) {
            throw new CheckpointFormatException(
                    RejectReason.UNSUPPORTED_VERSION,
                    "version is " + shown(v) + ", expected an integer " + CheckpointMigrations.OLDEST + ".." + VERSION);
        }
        int version = v.intValue();
        if (version < CheckpointMigrations.OLDEST || version > VERSION) {
            throw new CheckpointFormatException(
                    RejectReason.UNSUPPORTED_VERSION,
                    "version " + version + " is not supported: this agent reads versions " + CheckpointMigrations.OLDEST
                            + ".." + VERSION + " (a newer agent wrote it?)");
        }
        String stored = text(envelope, "checksum");
        ObjectNode covered = envelope.deepCopy();
        covered.remove("checksum");
        String actual = checksum(covered);
        if (!actual.equals(stored)) {
            throw new CheckpointFormatException(
                    RejectReason.CHECKSUM_MISMATCH,
                    "checksum " + stored + " does not match the content (" + actual + "): the file changed after it"
                            + " was written");
        }
        ObjectNode current = CheckpointMigrations.upgrade(envelope, version);
        for (Iterator<String> it = current.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!FIELDS.contains(f)) {
                // Covered by the checksum, so written on purpose: by a format this agent does not know.
                throw new CheckpointFormatException(
                        RejectReason.MALFORMED,
                        "field \"" + f + "\" is not part of checkpoint version " + VERSION + ": allowed "
                                + String.join(", ", FIELDS));
            }
        }
        String topology = text(current, "topology");
        if (!topology.equals(expected.value())) {
            throw new CheckpointFormatException(
                    RejectReason.TOPOLOGY_MISMATCH,
                    "taken on topology " + topology + " but this machine is " + expected.value()
                            + ": CPUs, NUMA nodes or their layout changed since");
        }
        String config = text(current, "config");
        JsonNode state = current.get("state");
        if (state == null || !state.isObject()) {
            throw new CheckpointFormatException(
                    RejectReason.MALFORMED, "state must be an object (the node state), got " + shown(state));
        }
        NodeState decoded;
        try {
            decoded = NodeStateCodec.decode(COMPACT.writeValueAsString(state));
        } catch (NodeStateFormatException | JsonProcessingException e) {
            throw new CheckpointFormatException(RejectReason.BAD_STATE, "state: " + e.getMessage());
        }
        return new Checkpoint(decoded, new TopologyFingerprint(topology), config);
    }

    private static ObjectNode parse(byte[] bytes) throws CheckpointFormatException {
        if (bytes.length == 0) {
            throw new CheckpointFormatException(RejectReason.TRUNCATED, "the file is empty");
        }
        JsonNode root;
        try {
            root = JSON.readTree(bytes);
        } catch (JsonProcessingException e) {
            if (endsEarly(e, bytes.length)) {
                throw new CheckpointFormatException(
                        RejectReason.TRUNCATED,
                        "the JSON ends early at byte " + bytes.length + ": " + firstLine(e.getOriginalMessage()));
            }
            throw new CheckpointFormatException(
                    RejectReason.MALFORMED, "not valid JSON: " + firstLine(e.getOriginalMessage()) + location(e));
        } catch (IOException e) {
            // Bytes that are not UTF-8 end up here.
            throw new CheckpointFormatException(RejectReason.MALFORMED, "not valid JSON: " + firstLine(e.getMessage()));
        }
        if (root instanceof ObjectNode o) {
            return o;
        }
        throw new CheckpointFormatException(
                RejectReason.MALFORMED,
                "expected a JSON object with kind, version, topology, config, checksum and state, got "
                        + (root == null || root.isMissingNode()
                                ? "nothing"
                                : root.getNodeType().toString().toLowerCase(java.util.Locale.ROOT)));
    }

    /**
     * Whether parsing stopped because the bytes ran out. Jackson reports that as {@link JsonEOFException} inside a
     * token, but as a plain parse error ("Unexpected end-of-input", at the last byte) when the cut falls between two
     * entries ({@code "version" : 1,} and the end): both are a file cut short. A bad token that happens to end the
     * file ({@code first}) is not.
     */
    private static boolean endsEarly(JsonProcessingException e, int length) {
        return e instanceof JsonEOFException
                || (e.getLocation() != null
                        && e.getLocation().getByteOffset() >= length
                        && String.valueOf(e.getOriginalMessage()).startsWith("Unexpected end-of-input"));
    }

    private static String text(ObjectNode envelope, String field) throws CheckpointFormatException {
        JsonNode v = envelope.get(field);
        if (v == null || !v.isTextual()) {
            throw new CheckpointFormatException(RejectReason.MALFORMED, field + " must be a string, got " + shown(v));
        }
        return v.textValue();
    }

    /** A field's value as JSON, or "nothing (the field is missing)". */
    private static String shown(JsonNode v) {
        return v == null ? "nothing (the field is missing)" : v.toString();
    }

    static String checksum(ObjectNode covered) {
        StringWriter out = new StringWriter(8192);
        try (JsonGenerator g = COMPACT.getFactory().createGenerator(out)) {
            canonical(covered, g);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the checkpoint's canonical form: " + e.getMessage(), e);
        }
        return Checksums.sha256(out.toString().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Compact JSON with object keys sorted at every level, through one generator: a string per key and value
     * ({@code JsonNode.toString}) cost a generator each, thousands per checkpoint, on every start and every save.
     */
    private static void canonical(JsonNode node, JsonGenerator g) throws IOException {
        if (node.isObject()) {
            List<String> keys = new ArrayList<>(node.size());
            node.fieldNames().forEachRemaining(keys::add);
            Collections.sort(keys);
            g.writeStartObject();
            for (String key : keys) {
                g.writeFieldName(key);
                canonical(node.get(key), g);
            }
            g.writeEndObject();
        } else if (node.isArray()) {
            g.writeStartArray();
            for (JsonNode element : node) {
                canonical(element, g);
            }
            g.writeEndArray();
        } else {
            g.writeTree(node);
        }
    }

    private static String location(JsonProcessingException e) {
        return e.getLocation() == null
                ? ""
                : " (line " + e.getLocation().getLineNr() + ", column "
                        + e.getLocation().getColumnNr() + ")";
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
