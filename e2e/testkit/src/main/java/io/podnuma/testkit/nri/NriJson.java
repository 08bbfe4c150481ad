package io.podnuma.testkit.nri;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;

/**
 * The wire between the fixtures and the Go programs: NRI messages ({@code nri.pkg.api.v1alpha1}, Java types
 * {@code io.podnuma.nri.v1alpha1}) as protobuf JSON inside JSON lines. Parsing is strict ({@link #parse}) for what
 * a test or a plugin built from podnuma's subset of the API and the harness echoes (pods, updates), so a field the
 * subset lacks is a bug to see. What passed through the adaptation's own hands is read leniently
 * ({@link #parseUpstream}): its merged event responses and the containers it created carry empty messages of its
 * own, {@code "hooks":{}} and {@code "linux":{"rdt":{}}} (nri v0.12.3), types the subset leaves out.
 */
final class NriJson {

    static final ObjectMapper MAPPER = new ObjectMapper();

    private static final JsonFormat.Printer PRINTER = JsonFormat.printer().omittingInsignificantWhitespace();
    private static final JsonFormat.Parser PARSER = JsonFormat.parser();
    private static final JsonFormat.Parser LENIENT = JsonFormat.parser().ignoringUnknownFields();

    private NriJson() {}

    /** A typed message as a JSON tree, to be put into a command line. */
    static JsonNode tree(MessageOrBuilder message) {
        try {
            return MAPPER.readTree(PRINTER.print(message));
        } catch (InvalidProtocolBufferException | JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "cannot print " + message.getClass().getName() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The message at {@code node} (an absent node is the empty message) as the type of {@code builder}; an
     * {@link IllegalArgumentException} for anything that is not such a message.
     */
    static <M extends Message> M parse(JsonNode node, Message.Builder builder) {
        return parse(node, builder, PARSER);
    }

    /** A message the adaptation built or changed, fields unknown to the subset skipped (see the class comment). */
    static <M extends Message> M parseUpstream(JsonNode node, Message.Builder builder) {
        return parse(node, builder, LENIENT);
    }

    @SuppressWarnings("unchecked")
    private static <M extends Message> M parse(JsonNode node, Message.Builder builder, JsonFormat.Parser parser) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return (M) builder.build();
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException(
                    "a " + builder.getDescriptorForType().getFullName() + " is a JSON object, not: " + node);
        }
        try {
            parser.merge(node.toString(), builder);
            return (M) builder.build();
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalArgumentException(
                    "not a " + builder.getDescriptorForType().getFullName() + ": " + e.getMessage() + ": " + node, e);
        }
    }
}
