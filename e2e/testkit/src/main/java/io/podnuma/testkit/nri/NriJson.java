package io.podnuma.testkit.nri;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import java.util.Objects;

/**
 * One NRI message ({@code nri.pkg.api.v1alpha1}) as protobuf JSON, the form the harness speaks on its pipes. Until the
 * build has Java types for the NRI API, tests read it as a JSON tree ({@link #at}); once it has, {@link #of} and
 * {@link #mergeInto} convert to and from the typed messages with no change to the harness.
 */
public record NriJson(String json) {

    static final ObjectMapper MAPPER = new ObjectMapper();

    /** The empty message ({@code {}}): what an event without a response body answers. */
    public static final NriJson EMPTY = new NriJson("{}");

    public NriJson {
        Objects.requireNonNull(json, "json");
        try {
            if (!MAPPER.readTree(json).isObject()) {
                throw new IllegalArgumentException("an NRI message is a JSON object, not: " + json);
            }
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage() + ": " + json, e);
        }
    }

    /** A typed message as protobuf JSON. */
    public static NriJson of(MessageOrBuilder message) {
        try {
            return new NriJson(
                    JsonFormat.printer().omittingInsignificantWhitespace().print(message));
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalArgumentException(
                    "cannot print " + message.getClass().getName() + ": " + e.getMessage(), e);
        }
    }

    static NriJson of(JsonNode node) {
        return new NriJson(node.toString());
    }

    /** Merges this message into {@code builder} (unknown fields refused: a typo in a test shows). */
    public <B extends Message.Builder> B mergeInto(B builder) {
        try {
            JsonFormat.parser().merge(json, builder);
            return builder;
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalArgumentException(
                    "not a " + builder.getDescriptorForType().getFullName() + ": " + e.getMessage(), e);
        }
    }

    /** The message as a JSON tree. */
    public JsonNode tree() {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("validated at construction", e);
        }
    }

    /**
     * The field at a JSON pointer ({@code /adjust/linux/resources/cpu/cpus}; JSON names, lowerCamelCase) as text; ""
     * when absent, which is also what proto3 says an unset string is.
     */
    public String at(String pointer) {
        JsonNode node = tree().at(pointer);
        return node.isMissingNode() || node.isNull() ? "" : node.asText();
    }

    /** Whether the message has a field at a JSON pointer (set and not the proto3 default, which JSON omits). */
    public boolean has(String pointer) {
        return !tree().at(pointer).isMissingNode();
    }

    @Override
    public String toString() {
        return json;
    }
}
