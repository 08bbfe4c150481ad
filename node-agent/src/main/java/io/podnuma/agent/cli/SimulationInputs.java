package io.podnuma.agent.cli;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Reads simulate's inputs: the policy file and the pod manifests, with errors that name file and field. */
final class SimulationInputs {

    /** A manifest step: a pod to admit, or (annotation {@value #ACTION_ANNOTATION}=delete) to remove. */
    record PodManifest(String file, Pod pod, boolean delete) {}

    static final String ACTION_ANNOTATION = "podnuma.io/simulate";

    private static final ObjectMapper YAML =
            new ObjectMapper(new YAMLFactory()).enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private SimulationInputs() {}

    static NumaResourcePolicy policy(Path file) {
        JsonNode tree = readTree(file);
        requireKind(file, tree, "NumaResourcePolicy");
        NumaResourcePolicy policy = convert(file, tree, NumaResourcePolicy.class);
        if (policy.getSpec() == null) {
            throw new InputException(file + ": spec is missing");
        }
        return policy;
    }

    /** Every document of every {@code *.yaml}/{@code *.yml} file in {@code dir}, files in name order. */
    static List<PodManifest> pods(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new InputException(dir + ": --pods must be a directory of pod manifests (*.yaml, *.yml)");
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().matches(".*\\.ya?ml"))
                    .sorted((a, b) ->
                            a.getFileName().toString().compareTo(b.getFileName().toString()))
                    .toList();
        } catch (IOException e) {
            throw new InputException(dir + ": cannot list the directory: " + e.getMessage());
        }
        List<PodManifest> out = new ArrayList<>();
        for (Path file : files) {
            String name = file.getFileName().toString();
            int doc = 0;
            try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
                while (it.hasNext()) {
                    JsonNode tree = it.next();
                    doc++;
                    if (tree == null || tree.isNull() || tree.isEmpty()) {
                        continue;
                    }
                    String where = name + (doc > 1 ? " (document " + doc + ")" : "");
                    requireKind(Path.of(where), tree, "Pod");
                    Pod pod = convert(Path.of(where), tree, Pod.class);
                    String action =
                            pod.getMetadata() == null || pod.getMetadata().getAnnotations() == null
                                    ? null
                                    : pod.getMetadata().getAnnotations().get(ACTION_ANNOTATION);
                    if (action != null && !action.equals("delete") && !action.equals("admit")) {
                        throw new InputException(where + ": metadata.annotations[" + ACTION_ANNOTATION + "] \"" + action
                                + "\" is not an action: allowed admit (the default) and delete");
                    }
                    out.add(new PodManifest(where, pod, "delete".equals(action)));
                }
            } catch (IOException e) {
                throw new InputException(name + ": not valid YAML: " + firstLine(e.getMessage()));
            }
        }
        return out;
    }

    private static JsonNode readTree(Path file) {
        try {
            JsonNode tree = YAML.readTree(file.toFile());
            if (tree == null || !tree.isObject()) {
                throw new InputException(file + ": expected a YAML object, the file is empty or not an object");
            }
            return tree;
        } catch (IOException e) {
            throw new InputException(file + ": cannot read: " + firstLine(e.getMessage()));
        }
    }

    private static void requireKind(Path file, JsonNode tree, String kind) {
        JsonNode k = tree.get("kind");
        if (k == null || !kind.equals(k.asText())) {
            throw new InputException(
                    file + ": kind is " + (k == null ? "missing" : "\"" + k.asText() + "\"") + ", expected " + kind);
        }
    }

    private static <T> T convert(Path file, JsonNode tree, Class<T> type) {
        try {
            return YAML.treeToValue(tree, type);
        } catch (JsonMappingException e) {
            String path = field(e);
            throw new InputException(
                    file + ": " + (path.isEmpty() ? "" : "field " + path + ": ") + firstLine(e.getOriginalMessage()));
        } catch (IOException e) {
            throw new InputException(file + ": " + firstLine(e.getMessage()));
        }
    }

    private static String field(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                sb.append(sb.isEmpty() ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return sb.toString();
    }

    static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** Bad input; the message names the file and field. */
    static final class InputException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InputException(String message) {
            super(message);
        }
    }
}
