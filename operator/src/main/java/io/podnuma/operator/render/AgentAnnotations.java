package io.podnuma.operator.render;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Extra annotations on the agent pods: the API server's rules for them, so that a bad one is refused with its reason
 * when the operator starts rather than by the API server at every reconcile, and the keys the operator sets on the pod
 * template itself, which an extra annotation may not replace (the config hash is what rolls the agents onto a new
 * config file).
 */
public final class AgentAnnotations {

    /** Every annotation key {@link AgentRender} puts on the pod template. */
    public static final List<String> RESERVED = List.of(AgentRender.CONFIG_HASH_ANNOTATION);

    /** The API server's limit on the keys and values of one object's annotations together, in bytes. */
    static final int API_SERVER_TOTAL_BYTES = 256 * 1024;

    /** What is left to the extra annotations: the config hash ({@code sha256:} and 64 hex digits) takes the rest. */
    public static final int MAX_TOTAL_BYTES =
            API_SERVER_TOTAL_BYTES - (AgentRender.CONFIG_HASH_ANNOTATION.length() + "sha256:".length() + 64);

    public static final String KEY_RULE = "an annotation key: an optional DNS subdomain prefix and '/', then a name of"
            + " at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit"
            + " (example.com/note)";
    public static final String TOTAL_RULE = "keys and values of at most " + MAX_TOTAL_BYTES + " bytes together in"
            + " UTF-8 (256 KiB, less the operator's " + AgentRender.CONFIG_HASH_ANNOTATION + ")";

    private AgentAnnotations() {}

    /**
     * Empty when {@code key} is a valid annotation key, else {@link #KEY_RULE}. The API server checks the key
     * lowercased, so unlike a label key's prefix an annotation key's may have capitals.
     */
    public static Optional<String> keyProblem(String key) {
        return LabelSyntax.keyProblem(key.toLowerCase(Locale.ROOT)).map(p -> KEY_RULE);
    }

    /** The size the API server counts: the bytes of every key and value. */
    public static long totalBytes(Map<String, String> annotations) {
        return annotations.entrySet().stream()
                .mapToLong(e -> utf8(e.getKey()) + utf8(e.getValue()))
                .sum();
    }

    /** Refuses a map with a bad or reserved key, or too large, naming {@code what} and every problem. */
    static void require(String what, Map<String, String> annotations) {
        List<String> problems = new ArrayList<>();
        annotations.forEach((k, v) -> {
            keyProblem(k).ifPresent(p -> problems.add(k + ": allowed " + p));
            if (RESERVED.contains(k)) {
                problems.add(k + ": the operator sets it");
            }
        });
        long total = totalBytes(annotations);
        if (total > MAX_TOTAL_BYTES) {
            problems.add(total + " bytes: allowed " + TOTAL_RULE);
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(what + ": " + String.join("; ", problems));
        }
    }

    private static long utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
