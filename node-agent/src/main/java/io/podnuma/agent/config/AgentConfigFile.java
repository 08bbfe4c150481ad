package io.podnuma.agent.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfig;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfigYaml;
import io.podnuma.crds.settings.InvalidValueException;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.yaml.YamlProblems;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads the agent's YAML file into a {@link NodeAgentConfig}, naming every key that cannot be read: the YAML itself,
 * the header, each setting's file value (checked as its {@link Setting#type} will check it, so that what reaches the
 * type is what the file says) and the policy. A setting given as a flag or in the environment is not looked at in
 * the file: that value wins, whatever the file holds.
 */
final class AgentConfigFile {

    /**
     * @param config the file's valid values (a bad value is left out and named in {@link #settingProblems})
     * @param headerProblems apiVersion, kind and unknown keys
     * @param settingProblems at most one per setting, to be reported in the order of the settings
     * @param policyProblems the policy missing, of the wrong shape, or not fitting the spec's types: every such key
     * @param policyUnreadable the policy's paths (under {@code policy.}) left at their defaults because they could not
     *     be read, for {@code PolicyValidator} to skip the rules that pair them with other fields
     */
    record Read(
            NodeAgentConfig config,
            List<String> headerProblems,
            Map<Setting, String> settingProblems,
            List<String> policyProblems,
            Set<String> policyUnreadable) {}

    /** Far above the keys a policy has: a loop that could not remove what it reported stops here. */
    private static final int MAX_POLICY_PROBLEMS = 200;

    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .build())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private static final String API_VERSION = NodeAgentConfig.API_VERSION;
    private static final String KIND = NodeAgentConfig.KIND;

    private AgentConfigFile() {}

    /**
     * @param overridden the settings a flag or variable sets
     * @throws AgentConfigException when the file as a whole cannot be used: not YAML, empty, not a mapping, several
     *     documents
     */
    static Read read(String yaml, String fileName, Set<Setting> overridden) {
        JsonNode root = readYaml(yaml, fileName);
        List<String> header = new ArrayList<>();
        checkHeader(root, fileName, header);
        ObjectNode settings = JsonNodeFactory.instance.objectNode();
        Map<Setting, String> settingProblems = new EnumMap<>(Setting.class);
        for (Setting s : Setting.values()) {
            if (!overridden.contains(s) && root.has(s.key())) {
                String problem = fileValue(s, root.get(s.key()), fileName, settings);
                if (problem != null) {
                    settingProblems.put(s, problem);
                }
            }
        }
        List<String> policyProblems = new ArrayList<>();
        Set<String> unreadable = new LinkedHashSet<>();
        NumaResourcePolicySpec policy = policy(root.get("policy"), fileName, policyProblems, unreadable);
        // Only checked values reach the type, each as a node of its component's type: the binding cannot fail.
        NodeAgentConfig config = NodeAgentConfigYaml.fromTree(settings).toBuilder()
                .policy(policy)
                .build();
        return new Read(config, header, settingProblems, policyProblems, Set.copyOf(unreadable));
    }

    /** Puts the file's value of {@code s} into {@code settings}, or returns what is wrong with it. */
    private static String fileValue(Setting s, JsonNode v, String fileName, ObjectNode settings) {
        String source = fileName + ": " + s.key();
        if (v.isNull()) {
            return source + " has no value: "
                    + (s.defaultValue() == null
                            ? "give one, it is required"
                            : "give one, or remove the key to use the default \"" + s.defaultValue() + "\"");
        }
        if (!v.isValueNode()) {
            return source + " must be a single value, got " + kind(v);
        }
        if (s == Setting.POD_RESOURCES_SOCKET_MODE && !v.isTextual()) {
            // YAML 1.1 reads 0600 as octal 384 and 600 as decimal: only a string is unambiguous.
            return source + " is the YAML number " + v.asText()
                    + ": write the mode as a quoted string, e.g. \"0600\" (unquoted, YAML reads 0600 as octal 384)";
        }
        if (s == Setting.NRI_PLUGIN_INDEX && !v.isTextual()) {
            // YAML 1.1 reads 05 as 5 and 010 as octal 8: only a string keeps the two digits.
            return source + " is the YAML number " + v.asText()
                    + ": write the index as a quoted string of two digits, e.g. \"40\" (unquoted, YAML reads 05 as 5)";
        }
        String value = v.asText();
        try {
            s.type().fromText(value);
        } catch (InvalidValueException e) {
            return e.problems().getFirst().describe(source);
        }
        settings.set(s.key(), component(s, value));
        return null;
    }

    /** A checked value as a node of its {@link NodeAgentConfig} component's type. */
    private static JsonNode component(Setting s, String value) {
        return switch (s) {
            case METRICS_PORT, HEALTH_PORT, POD_RESOURCES_BURST -> IntNode.valueOf(Integer.parseInt(value));
            case POD_RESOURCES_QPS -> DecimalNode.valueOf(new BigDecimal(value));
            default -> TextNode.valueOf(value);
        };
    }

    private static JsonNode readYaml(String yaml, String fileName) {
        JsonNode root;
        try (JsonParser p = YAML.createParser(yaml)) {
            root = YAML.readTree(p);
            if (root != null && p.nextToken() != null) {
                throw new AgentConfigException(List.of(
                        fileName + ": holds more than one YAML document; the agent configuration is one document"));
            }
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null
                    ? ""
                    : " (line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr() + ")";
            throw new AgentConfigException(
                    List.of(fileName + ": not valid YAML: " + YamlProblems.oneLine(e.getOriginalMessage()) + where));
        } catch (IOException | RuntimeException e) {
            // SnakeYAML reports some malformed input (bad escapes, bad indentation in flow style) unchecked.
            if (e instanceof AgentConfigException ace) {
                throw ace;
            }
            throw new AgentConfigException(
                    List.of(fileName + ": not valid YAML: " + YamlProblems.oneLine(e.getMessage())));
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            throw new AgentConfigException(List.of(fileName + ": the file is empty; it needs at least apiVersion: "
                    + API_VERSION + ", kind: " + KIND + ", nodeName (or " + Setting.NODE_NAME.env() + ") and policy"));
        }
        if (!root.isObject()) {
            throw new AgentConfigException(
                    List.of(fileName + ": must be a YAML mapping of settings, got " + kind(root)));
        }
        return root;
    }

    private static void checkHeader(JsonNode root, String fileName, List<String> problems) {
        expect(root, "apiVersion", API_VERSION, fileName, problems);
        expect(root, "kind", KIND, fileName, problems);
        List<String> allowed = new ArrayList<>(List.of("apiVersion", "kind"));
        Arrays.stream(Setting.values()).map(Setting::key).forEach(allowed::add);
        allowed.add("policy");
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!allowed.contains(k)) {
                problems.add(fileName + ": unknown key \"" + k + "\": allowed " + String.join(", ", allowed));
            }
        }
    }

    private static void expect(JsonNode root, String key, String value, String fileName, List<String> problems) {
        JsonNode v = root.get(key);
        if (v == null) {
            problems.add(fileName + ": " + key + " is missing: allowed " + value);
        } else if (!v.isTextual() || !v.textValue().equals(value)) {
            problems.add(fileName + ": " + key + " " + show(v) + ": allowed " + value);
        }
    }

    /**
     * The policy as far as it can be read. Jackson stops at the first key that does not fit the spec's types; to
     * report every one at once, the key it names is taken out of a copy of the tree and the binding tried again,
     * until it binds. The keys taken out keep their defaults and are listed in {@code unreadable}.
     */
    private static NumaResourcePolicySpec policy(
            JsonNode node, String fileName, List<String> problems, Set<String> unreadable) {
        if (node == null) {
            problems.add(fileName + ": policy is missing: it holds the NumaResourcePolicy spec in force on this node"
                    + " (the operator renders it into the agent's ConfigMap)");
            return null;
        }
        if (!node.isObject()) {
            problems.add(fileName + ": policy must be a mapping (a NumaResourcePolicy spec), got " + kind(node));
            return null;
        }
        JsonNode tree = node.deepCopy();
        for (int attempt = 0; attempt < MAX_POLICY_PROBLEMS; attempt++) {
            try {
                return YAML.treeToValue(tree, NumaResourcePolicySpec.class);
            } catch (JsonMappingException e) {
                problems.add(fileName + ": " + mappingProblem(e));
                List<JsonMappingException.Reference> path = e.getPath();
                if (path.isEmpty() || !remove(tree, path)) {
                    return null;
                }
                unreadable.add(relative(path));
            } catch (JsonProcessingException | IllegalArgumentException e) {
                problems.add(fileName + ": policy: " + firstLine(e.getMessage()));
                return null;
            }
        }
        return null;
    }

    /** Takes the node at {@code path} out of its parent; false when the path leads nowhere in the tree. */
    private static boolean remove(JsonNode tree, List<JsonMappingException.Reference> path) {
        JsonNode parent = tree;
        for (int i = 0; i < path.size() - 1; i++) {
            parent = step(parent, path.get(i));
            if (parent == null) {
                return false;
            }
        }
        JsonMappingException.Reference last = path.getLast();
        if (parent instanceof ObjectNode o && last.getFieldName() != null && o.has(last.getFieldName())) {
            o.remove(last.getFieldName());
            return true;
        }
        if (parent instanceof ArrayNode a
                && last.getFieldName() == null
                && last.getIndex() >= 0
                && last.getIndex() < a.size()) {
            a.remove(last.getIndex());
            return true;
        }
        return false;
    }

    private static JsonNode step(JsonNode node, JsonMappingException.Reference r) {
        if (r.getFieldName() != null) {
            return node.get(r.getFieldName());
        }
        return r.getIndex() >= 0 ? node.get(r.getIndex()) : null;
    }

    /** The path under {@code policy.} as the validator names fields: {@code memoryManager.reservedMemory[0]}. */
    private static String relative(List<JsonMappingException.Reference> path) {
        StringBuilder b = new StringBuilder();
        for (JsonMappingException.Reference r : path) {
            if (r.getFieldName() != null) {
                b.append(b.isEmpty() ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                b.append('[').append(r.getIndex()).append(']');
            }
        }
        return b.toString();
    }

    private static String mappingProblem(JsonMappingException e) {
        StringBuilder path = new StringBuilder("policy");
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                path.append('.').append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                path.append('[').append(r.getIndex()).append(']');
            }
        }
        if (e instanceof UnrecognizedPropertyException u) {
            String parent =
                    path.substring(0, path.length() - u.getPropertyName().length() - 1);
            return parent + ": unknown key \"" + u.getPropertyName() + "\": allowed " + names(u.getKnownPropertyIds());
        }
        if (e instanceof InvalidFormatException f
                && f.getTargetType() != null
                && f.getTargetType().isEnum()) {
            return path + " " + show(f.getValue()) + ": allowed " + enumNames(f.getTargetType());
        }
        if (e instanceof ValueInstantiationException v) {
            // The crds records refuse nulls (List.copyOf, Map.copyOf): a "~" or empty list entry or map value.
            return path + ": holds an empty (null) entry or value"
                    + (v.getCause() instanceof IllegalArgumentException iae ? " (" + iae.getMessage() + ")" : "")
                    + "; give it a value or remove it";
        }
        if (e instanceof MismatchedInputException m && m.getTargetType() != null) {
            return path + ": expected " + expected(m.getTargetType());
        }
        return path + ": " + firstLine(e.getOriginalMessage());
    }

    private static String expected(Class<?> type) {
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "an integer";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type.isEnum()) {
            return "one of " + enumNames(type);
        }
        if (Collection.class.isAssignableFrom(type)) {
            return "a list";
        }
        return "a mapping";
    }

    private static String enumNames(Class<?> type) {
        List<String> names = new ArrayList<>();
        for (Object c : type.getEnumConstants()) {
            String n = ((Enum<?>) c).name();
            try {
                JsonProperty p = type.getField(n).getAnnotation(JsonProperty.class);
                names.add(p == null ? n : p.value());
            } catch (NoSuchFieldException ex) {
                names.add(n);
            }
        }
        return String.join(", ", names);
    }

    private static String names(Collection<Object> ids) {
        return ids == null ? "" : ids.stream().map(String::valueOf).sorted().collect(Collectors.joining(", "));
    }

    private static String kind(JsonNode n) {
        if (n.isObject()) {
            return "a mapping";
        }
        if (n.isArray()) {
            return "a list";
        }
        return n.isTextual() ? "the string " + show(n) : n.asText();
    }

    private static String show(Object v) {
        String s = v instanceof JsonNode n ? (n.isTextual() ? n.textValue() : n.toString()) : String.valueOf(v);
        return "\"" + s + "\"";
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
