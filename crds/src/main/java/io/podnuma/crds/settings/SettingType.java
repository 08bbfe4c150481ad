package io.podnuma.crds.settings;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import java.util.Objects;
import java.util.function.Function;

/**
 * How a setting's value is written and read. A {@link Text} setting is one value everywhere: a flag, a variable or a
 * YAML scalar. A {@link Structure} is a YAML list or map in the file and JSON as a flag or a variable, since a
 * command line and an environment have only strings. Both report through {@link InvalidValueException}. The agent's
 * settings are all text; the operator has lists and maps too.
 */
public sealed interface SettingType permits SettingType.Text, SettingType.Structure {

    /** From a flag, a variable or the default. */
    Object fromText(String text);

    /** From the file: whatever YAML node the key has. */
    Object fromFile(JsonNode node);

    /** A single value, read by {@code parser}, which throws an IllegalArgumentException saying what is allowed. */
    record Text(Function<String, ?> parser) implements SettingType {

        public Text {
            Objects.requireNonNull(parser, "parser");
        }

        @Override
        public Object fromText(String text) {
            try {
                return parser.apply(text);
            } catch (InvalidValueException e) {
                throw e;
            } catch (IllegalArgumentException e) {
                throw new InvalidValueException(new ValueProblem("", "\"" + text + "\"", e.getMessage()));
            }
        }

        @Override
        public Object fromFile(JsonNode node) {
            if (!node.isValueNode() && !node.isNull()) {
                throw new InvalidValueException(new ValueProblem(
                        "",
                        node.toString(),
                        "allowed a single value (text, a number or true/false), found " + a(node)));
            }
            return fromText(node.isNull() ? "" : node.asText());
        }
    }

    /**
     * A YAML list or map, read by {@code reader} once its shape is right.
     *
     * @param shape {@link JsonNodeType#ARRAY} or {@link JsonNodeType#OBJECT}
     * @param rule what the value is, with an example in JSON ({@code a list of tolerations, e.g. [...]})
     */
    record Structure(JsonNodeType shape, String rule, Function<JsonNode, ?> reader) implements SettingType {

        private static final ObjectMapper JSON =
                new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

        public Structure {
            if (shape != JsonNodeType.ARRAY && shape != JsonNodeType.OBJECT) {
                throw new IllegalArgumentException("a structure is a list or a map, not " + shape);
            }
            Objects.requireNonNull(rule, "rule");
            Objects.requireNonNull(reader, "reader");
        }

        @Override
        public Object fromText(String text) {
            JsonNode node;
            try {
                node = JSON.readTree(text);
            } catch (JsonProcessingException e) {
                throw new InvalidValueException(new ValueProblem(
                        "", "\"" + text + "\"", "allowed JSON, " + rule + " (" + e.getOriginalMessage() + ")"));
            }
            if (node == null || node.isMissingNode()) {
                throw new InvalidValueException(new ValueProblem("", "\"" + text + "\"", "allowed JSON, " + rule));
            }
            return fromFile(node);
        }

        @Override
        public Object fromFile(JsonNode node) {
            if (node.getNodeType() != shape) {
                throw new InvalidValueException(
                        new ValueProblem("", node.toString(), "allowed " + rule + ", found " + a(node)));
            }
            return reader.apply(node);
        }
    }

    /** The kind of a node, for messages: {@code a list}, {@code a map}, {@code text}, {@code null}. */
    public static String a(JsonNode node) {
        return switch (node.getNodeType()) {
            case ARRAY -> "a list";
            case OBJECT -> "a map";
            case STRING -> "text";
            case NUMBER -> "a number";
            case BOOLEAN -> "true/false";
            case NULL -> "null";
            default -> node.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
        };
    }
}
