package io.podnuma.crds.agent.v1alpha1;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads and writes a {@link NodeAgentConfig} file. Writing is canonical: keys in the documented order (maps by key),
 * no null or unset key, every string quoted (so {@code "0600"} and {@code "::1"} stay strings), no document marker;
 * the same config always gives the same bytes. Reading refuses unknown and repeated keys; it does not validate
 * values, which is the agent's job (it names the key, the value and what is allowed).
 */
public final class NodeAgentConfigYaml {

    private static final ObjectMapper YAML = JsonMapper.builder(YAMLFactory.builder()
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                    .disable(YAMLGenerator.Feature.SPLIT_LINES)
                    .build())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private NodeAgentConfigYaml() {}

    /** @throws IllegalArgumentException when the text is not YAML or does not fit the type (unknown key, a list for a string) */
    public static NodeAgentConfig read(String yaml) {
        try {
            return YAML.readValue(yaml, NodeAgentConfig.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a NodeAgentConfig: " + e.getOriginalMessage(), e);
        }
    }

    /** {@link #read(String)} on a UTF-8 file. */
    public static NodeAgentConfig read(Path file) {
        try {
            return read(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /**
     * The config from an already parsed YAML tree, for a reader that checks the tree itself first (the agent does,
     * to name each bad key in its own words).
     *
     * @throws IllegalArgumentException as {@link #read(String)}
     */
    public static NodeAgentConfig fromTree(JsonNode tree) {
        try {
            return YAML.treeToValue(tree, NodeAgentConfig.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a NodeAgentConfig: " + e.getOriginalMessage(), e);
        }
    }

    /** The canonical YAML text of the config. */
    public static String write(NodeAgentConfig config) {
        try {
            return YAML.writeValueAsString(config);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the agent config: " + e.getOriginalMessage(), e);
        }
    }

    /** Writes {@link #write(NodeAgentConfig)} to {@code file} (UTF-8) and returns the file. */
    public static Path write(NodeAgentConfig config, Path file) {
        try {
            return Files.writeString(file, write(config), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
