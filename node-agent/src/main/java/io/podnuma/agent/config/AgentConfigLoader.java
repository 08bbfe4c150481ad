package io.podnuma.agent.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.policy.NodeConfigMapper;
import io.podnuma.agent.policy.PolicyValidator;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Reads and validates the agent configuration.
 *
 * <p>Each {@link Setting} takes the first value found in: a command-line flag ({@code --metrics-port}), an
 * environment variable ({@code PODNUMA_METRICS_PORT}), the YAML file ({@code metricsPort}), its default. The
 * file is {@code --config}, else {@code $PODNUMA_CONFIG}, else {@value #DEFAULT_FILE}. The policy comes from
 * the file only. Unknown keys and flags are errors; unknown environment variables are not, because Kubernetes
 * injects {@code <SERVICE>_SERVICE_HOST}-style variables the agent does not control.
 */
public final class AgentConfigLoader {

    public static final String API_VERSION = "podnuma.io/v1alpha1";
    public static final String KIND = "NodeAgentConfig";
    public static final String CONFIG_FLAG = "config";
    public static final String CONFIG_ENV = "PODNUMA_CONFIG";
    public static final String DEFAULT_FILE = "/etc/podnuma/agent.yaml";

    /** Far above a real file (a few KiB); stops a wrong mount (a device, a log) from being read whole. */
    static final long MAX_FILE_BYTES = 1024 * 1024;

    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .build())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private static final ObjectMapper CANONICAL = JsonMapper.builder()
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private AgentConfigLoader() {}

    /**
     * @param flags long flag names without dashes ({@code metrics-port}, {@code config}) to values
     * @param env the process environment
     */
    public static AgentConfig load(Map<String, String> flags, Map<String, String> env) {
        String file = flags.getOrDefault(CONFIG_FLAG, env.getOrDefault(CONFIG_ENV, DEFAULT_FILE));
        Path path = Path.of(file);
        String text;
        try {
            long size = Files.size(path);
            if (size > MAX_FILE_BYTES) {
                throw new AgentConfigException(List.of(file + ": the file has " + size + " bytes, more than the "
                        + MAX_FILE_BYTES + " an agent configuration may have"));
            }
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new AgentConfigException(List.of(file + ": the configuration file does not exist (set it with --"
                    + CONFIG_FLAG + " or " + CONFIG_ENV + ")"));
        } catch (IOException e) {
            throw new AgentConfigException(List.of(file + ": cannot read the configuration file: " + e));
        }
        return parse(text, file, flags, env);
    }

    /** {@link #load} on a file's text; {@code fileName} only names it in messages. */
    public static AgentConfig parse(String yaml, String fileName, Map<String, String> flags, Map<String, String> env) {
        List<String> problems = new ArrayList<>();
        checkFlags(flags, problems);
        JsonNode root = readYaml(yaml, fileName);
        checkHeader(root, fileName, problems);
        Map<Setting, Object> values = new EnumMap<>(Setting.class);
        for (Setting s : Setting.values()) {
            resolve(s, root, fileName, flags, env, problems).ifPresent(v -> values.put(s, v));
        }
        crossCheck(values, problems);
        NumaResourcePolicySpec policy = policy(root.get("policy"), fileName, problems);
        NodeConfigMapper.Mapped mapped = null;
        List<String> policyProblems = policy == null ? List.of() : PolicyValidator.validate(policy, "policy");
        policyProblems.forEach(p -> problems.add(fileName + ": " + p));
        if (policy != null && policyProblems.isEmpty()) {
            try {
                mapped = NodeConfigMapper.map(policy);
            } catch (IllegalArgumentException e) {
                String m = e.getMessage();
                problems.add(fileName + ": " + (m.startsWith("spec.") ? "policy." + m.substring(5) : "policy: " + m));
            }
        }
        if (!problems.isEmpty()) {
            throw new AgentConfigException(problems);
        }
        return new AgentConfig(
                (String) values.get(Setting.NODE_NAME),
                (Path) values.get(Setting.SYSFS_ROOT),
                (Path) values.get(Setting.CGROUP_ROOT),
                (Path) values.get(Setting.STATE_DIR),
                (Path) values.get(Setting.POD_RESOURCES_SOCKET),
                (Integer) values.get(Setting.POD_RESOURCES_SOCKET_MODE),
                Optional.ofNullable((Path) values.get(Setting.KUBELET_POD_RESOURCES_SOCKET)),
                (Integer) values.get(Setting.METRICS_PORT),
                (Integer) values.get(Setting.HEALTH_PORT),
                (LogLevel) values.get(Setting.LOG_LEVEL),
                (Duration) values.get(Setting.RECONCILE_PERIOD),
                Optional.ofNullable((Path) values.get(Setting.KUBELET_STATE_DIR)),
                Optional.ofNullable((Path) values.get(Setting.KUBELET_CONFIG_FILE)),
                (String) values.get(Setting.METRICS_BIND_ADDRESS),
                (String) values.get(Setting.HEALTH_BIND_ADDRESS),
                (Double) values.get(Setting.POD_RESOURCES_QPS),
                (Integer) values.get(Setting.POD_RESOURCES_BURST),
                (Duration) values.get(Setting.KUBELET_CALL_TIMEOUT),
                Optional.ofNullable((CgroupDriver) values.get(Setting.CGROUP_DRIVER)),
                (ExclusiveCpuQuota) values.get(Setting.EXCLUSIVE_CPU_QUOTA),
                (Duration) values.get(Setting.STATUS_MIN_INTERVAL),
                (CgroupPath) values.get(Setting.KUBELET_CGROUP_ROOT),
                Optional.ofNullable((String) values.get(Setting.POLICY_NAME)),
                policy,
                mapped.config(),
                Optional.ofNullable(mapped.budgetAnnotation()),
                policyHash(policy));
    }

    /** {@code sha256:<hex>} of the policy's canonical JSON: keys sorted, defaults filled in, no formatting. */
    public static String policyHash(NumaResourcePolicySpec policy) {
        try {
            byte[] json = CANONICAL.writeValueAsBytes(policy);
            return "sha256:"
                    + HexFormat.of()
                            .formatHex(MessageDigest.getInstance("SHA-256").digest(json));
        } catch (JsonProcessingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot hash the policy: " + e.getMessage(), e);
        }
    }

    private static void checkFlags(Map<String, String> flags, List<String> problems) {
        List<String> known = new ArrayList<>();
        known.add(CONFIG_FLAG);
        Arrays.stream(Setting.values()).map(Setting::flag).forEach(known::add);
        for (String f : new TreeSet<>(flags.keySet())) {
            if (!known.contains(f)) {
                problems.add("unknown flag --" + f + ": allowed "
                        + known.stream().map(k -> "--" + k).collect(Collectors.joining(", ")));
            }
        }
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
                    List.of(fileName + ": not valid YAML: " + yamlProblem(e.getOriginalMessage()) + where));
        } catch (IOException | RuntimeException e) {
            // SnakeYAML reports some malformed input (bad escapes, bad indentation in flow style) unchecked.
            if (e instanceof AgentConfigException ace) {
                throw ace;
            }
            throw new AgentConfigException(List.of(fileName + ": not valid YAML: " + yamlProblem(e.getMessage())));
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

    private static Optional<Object> resolve(
            Setting s,
            JsonNode root,
            String fileName,
            Map<String, String> flags,
            Map<String, String> env,
            List<String> problems) {
        String value;
        String source;
        if (flags.containsKey(s.flag())) {
            value = flags.get(s.flag());
            source = "flag --" + s.flag();
        } else if (env.containsKey(s.env())) {
            value = env.get(s.env());
            source = "environment " + s.env();
        } else if (root.has(s.key())) {
            JsonNode v = root.get(s.key());
            source = fileName + ": " + s.key();
            if (v.isNull()) {
                problems.add(source + " has no value: "
                        + (s.defaultValue() == null
                                ? "give one, it is required"
                                : "give one, or remove the key to use the default \"" + s.defaultValue() + "\""));
                return Optional.empty();
            }
            if (!v.isValueNode()) {
                problems.add(source + " must be a single value, got " + kind(v));
                return Optional.empty();
            }
            if (s == Setting.POD_RESOURCES_SOCKET_MODE && !v.isTextual()) {
                // YAML 1.1 reads 0600 as octal 384 and 600 as decimal: only a string is unambiguous.
                problems.add(
                        source + " is the YAML number " + v.asText()
                                + ": write the mode as a quoted string, e.g. \"0600\" (unquoted, YAML reads 0600 as octal 384)");
                return Optional.empty();
            }
            value = v.asText();
        } else if (s.defaultValue() != null) {
            value = s.defaultValue();
            source = "default " + s.key();
        } else {
            problems.add(s.key() + " is required: set it in the file, with --" + s.flag() + " or with " + s.env());
            return Optional.empty();
        }
        if (value == null) {
            problems.add(source + " has no value");
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(s.parse(value));
        } catch (IllegalArgumentException e) {
            problems.add(source + " \"" + value + "\": " + e.getMessage());
            return Optional.empty();
        }
    }

    private static void crossCheck(Map<Setting, Object> values, List<String> problems) {
        Object metrics = values.get(Setting.METRICS_PORT);
        if (metrics != null && metrics.equals(values.get(Setting.HEALTH_PORT))) {
            problems.add("metricsPort and healthPort are both " + metrics + ": they must differ");
        }
        Object ours = values.get(Setting.POD_RESOURCES_SOCKET);
        if (ours != null && ours.equals(values.get(Setting.KUBELET_POD_RESOURCES_SOCKET))) {
            problems.add("podResourcesSocket and kubeletPodResourcesSocket are both " + ours
                    + ": the kubelet's socket must be a different one (the agent would merge its own answers)");
        }
    }

    private static NumaResourcePolicySpec policy(JsonNode node, String fileName, List<String> problems) {
        if (node == null) {
            problems.add(fileName + ": policy is missing: it holds the NumaResourcePolicy spec in force on this node"
                    + " (the operator renders it into the agent's ConfigMap)");
            return null;
        }
        if (!node.isObject()) {
            problems.add(fileName + ": policy must be a mapping (a NumaResourcePolicy spec), got " + kind(node));
            return null;
        }
        try {
            return YAML.treeToValue(node, NumaResourcePolicySpec.class);
        } catch (JsonMappingException e) {
            problems.add(fileName + ": " + mappingProblem(e));
        } catch (JsonProcessingException | IllegalArgumentException e) {
            problems.add(fileName + ": policy: " + firstLine(e.getMessage()));
        }
        return null;
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

    /**
     * SnakeYAML's messages put a context line, an excerpt with a caret, and the problem on separate lines; keep
     * the unindented lines (context and problem) on one line. The location is added by the caller.
     */
    private static String yamlProblem(String message) {
        if (message == null) {
            return "unknown error";
        }
        return Arrays.stream(message.split("\n"))
                .filter(l -> !l.isBlank() && !Character.isWhitespace(l.charAt(0)))
                .map(String::strip)
                .collect(Collectors.joining(": "));
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
