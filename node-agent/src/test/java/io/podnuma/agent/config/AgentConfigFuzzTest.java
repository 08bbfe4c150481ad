package io.podnuma.agent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.podnuma.agent.testing.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Seeded random mutations of a valid configuration file: each one loads, or is refused with an
 * {@link AgentConfigException} whose every problem names something; no other exception escapes.
 */
class AgentConfigFuzzTest {

    private static final int MUTATIONS = 4000;
    /**
     * Built as the loader builds its own: a factory from the builder reads an empty value as "", one from
     * {@code new YAMLFactory()} as null.
     */
    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build());

    private static final String TOKENS = " \n\t:-{}[],'\"#&*!|>%@`~0123456789abcxyzNTF.\\/";
    private static final String[] WORDS = {
        "null",
        "~",
        "true",
        "yes",
        "0600",
        "0x1F",
        "1e99",
        "99999999999999999999",
        "-1",
        "[]",
        "{}",
        "''",
        "&a",
        "*a",
        "!!binary",
        "!!int",
        "? ",
        "- ",
        "policy:",
        "cpuManager:",
        "nodeName:",
        "\n  ",
        "\n    "
    };

    @Test
    void everyMutationLoadsOrIsAClearConfigError() {
        long seed = Seeds.announce(getClass().getSimpleName());
        Random rnd = new Random(seed);
        String valid = AgentConfigLoaderTest.HEADER + """
                nodeName: worker-1
                podResourcesSocketMode: "0600"
                metricsPort: 9100
                reconcilePeriod: 30s
                kubeletCheckSocket: /var/lib/kubelet/pod-resources/kubelet.sock
                policy:
                  topologyManager: {policy: single-numa-node, scope: pod}
                  cpuManager:
                    policy: static
                    reservedCpus: "0,4"
                    options: {fullPcpusOnly: true}
                  memoryManager:
                    policy: Static
                    reservedMemory:
                      - numaNode: 0
                        limits: {memory: 1Gi}
                """;
        AgentConfigLoader.parse(valid, "agent.yaml", Map.of(), Map.of());
        int loaded = 0;
        Map<String, Integer> kinds = new TreeMap<>();
        for (int i = 0; i < MUTATIONS; i++) {
            String text = mutate(rnd, valid);
            try {
                AgentConfigLoader.parse(text, "agent.yaml", Map.of(), Map.of());
                loaded++;
            } catch (AgentConfigException e) {
                assertThat(e.problems()).isNotEmpty();
                for (String p : e.problems()) {
                    assertThat(p).as("seed %d mutation %d:%n%s", seed, i, text).hasSizeGreaterThan(15);
                    named(p, "seed " + seed + " mutation " + i + ":\n" + text);
                }
                String first = e.problems().getFirst();
                kinds.merge(first.startsWith("agent.yaml: not valid YAML") ? "yaml" : "setting", 1, Integer::sum);
            } catch (RuntimeException e) {
                fail("seed " + seed + " mutation " + i + " threw " + e + " for:\n" + text, e);
            }
        }
        System.out.println(
                getClass().getSimpleName() + ": " + MUTATIONS + " mutations, " + loaded + " loaded, refused " + kinds);
        assertThat(kinds.getOrDefault("yaml", 0)).isGreaterThan(MUTATIONS / 20);
        assertThat(kinds.getOrDefault("setting", 0)).isGreaterThan(MUTATIONS / 20);
        assertThat(loaded).isGreaterThan(0);
    }

    private static final int LINE_MUTATIONS = Integer.getInteger("podnuma.cases", 3000);

    private static final List<String> KEYS = Stream.concat(
                    Stream.of("apiVersion", "kind", "policy"),
                    Stream.of(Setting.values()).map(Setting::key))
            .toList();

    private static final List<String> WHOLE_FILE =
            List.of("must be a YAML mapping", "the file is empty", "holds more than one YAML document");

    /** Scalars of every kind a setting or policy field could be given by mistake. */
    private static final String[] SCALARS = {
        "0",
        "1",
        "-1",
        "2",
        "7",
        "8",
        "1024",
        "1025",
        "65536",
        "9464",
        "0.5",
        "1e3",
        "0x1F",
        "99999999999999999999",
        "NaN",
        ".inf",
        "true",
        "false",
        "off",
        "yes",
        "~",
        "null",
        "\"\"",
        "''",
        "\"0600\"",
        "0600",
        "0666",
        "10s",
        "500ms",
        "2h",
        "1m30s",
        "10",
        "-10s",
        "/var/lib/x",
        "relative/path",
        "/",
        "0.0.0.0",
        "::1",
        "[::1]",
        "256.1.1.1",
        "host.example",
        "-bad",
        "auto",
        "systemd",
        "Cgroupfs",
        "keep",
        "disable",
        "static",
        "Static",
        "none",
        "None",
        "pod",
        "socket",
        "single-numa-node",
        "0,64",
        "3-0",
        "0-3;8",
        "1Gi",
        "1GB",
        "0Mi",
        "Warn",
        "Kill",
        "podnuma.io/pod-resources",
        "pod budget!",
        "worker-1",
        "Worker_1",
        "\"\\q\"",
        "&a",
        "*a",
        "!!int 3"
    };

    /** Values of the wrong shape: lists, mappings, multi-line blocks. */
    private static final String[] SHAPES = {"[]", "{}", "[a, b]", "{a: 1}", "[1, [2]]", "|\n  text", ">-\n  folded"};

    /**
     * Line-level mutations of the documented example file: lines deleted, duplicated, moved, re-indented; scalars
     * changed; values of the wrong type; known and unknown keys added; truncation. Each result either loads, with
     * every setting holding exactly the value the file gives it, or is refused with problems that each name the key
     * (or, for broken YAML, the line and column).
     */
    @Test
    void everyLineMutationLoadsExactlyOrNamesTheKey() throws Exception {
        long seed = Long.getLong("podnuma.seed", System.nanoTime());
        System.out.println(
                getClass().getSimpleName() + " lines seed=" + seed + " (replay with -Dpodnuma.seed=" + seed + ")");
        Random rnd = new Random(seed);
        String valid = java.nio.file.Files.readString(java.nio.file.Path.of("examples/agent.yaml"));
        AgentConfigLoader.parse(valid, "agent.yaml", Map.of(), Map.of());
        Map<String, Integer> outcomes = new TreeMap<>();
        for (int i = 0; i < LINE_MUTATIONS; i++) {
            String text = mutateLines(rnd, valid, KEYS);
            String what = "seed " + seed + " line mutation " + i + ":\n" + text;
            try {
                AgentConfig c = AgentConfigLoader.parse(text, "agent.yaml", Map.of(), Map.of());
                assertLoadedAsWritten(c, text, what);
                outcomes.merge("loaded", 1, Integer::sum);
            } catch (AgentConfigException e) {
                assertThat(e.problems()).as(what).isNotEmpty();
                for (String p : e.problems()) {
                    outcomes.merge(named(p, what), 1, Integer::sum);
                }
            } catch (RuntimeException e) {
                fail(what + "\nthrew " + e, e);
            }
        }
        System.out.println(getClass().getSimpleName() + ": " + LINE_MUTATIONS + " line mutations: " + outcomes);
        assertThat(outcomes.getOrDefault("loaded", 0)).isGreaterThan(LINE_MUTATIONS / 20);
        assertThat(outcomes.getOrDefault("refused, key named", 0)).isGreaterThan(LINE_MUTATIONS / 4);
    }

    /**
     * Checks that a problem names what is wrong: a key (a setting, apiVersion, kind or a policy path), or for YAML
     * that does not parse the line and column, or the file as a whole. Returns which.
     */
    private static String named(String problem, String what) {
        assertThat(problem).as(what).doesNotContain("Exception", "io.podnuma", "java.lang", "com.fasterxml");
        if (KEYS.stream()
                .anyMatch(k -> Pattern.compile("(^|[ :\"-])" + k + "([ :.\"\\[]|$)")
                        .matcher(problem)
                        .find())) {
            return "refused, key named";
        }
        if (problem.matches("(?s).*\\(line [0-9]+, column [0-9]+\\).*")) {
            return "refused, YAML place named";
        }
        // What is wrong with the whole file has no key to name.
        assertThat(WHOLE_FILE.stream().anyMatch(w -> problem.startsWith("agent.yaml: " + w)))
                .as("%s%nproblem names no key and no place: %s", what, problem)
                .isTrue();
        return "refused, whole file";
    }

    private static String mutateLines(Random rnd, String valid, List<String> keys) {
        List<String> lines = new ArrayList<>(List.of(valid.split("\n", -1)));
        int rounds = 1 + rnd.nextInt(3);
        for (int k = 0; k < rounds && !lines.isEmpty(); k++) {
            int at = rnd.nextInt(lines.size());
            String line = lines.get(at);
            switch (rnd.nextInt(9)) {
                case 0 -> lines.remove(at);
                case 1 -> lines.add(rnd.nextInt(lines.size() + 1), line);
                case 2, 3 -> lines.set(at, withValue(line, SCALARS[rnd.nextInt(SCALARS.length)]));
                case 4 -> lines.set(at, withValue(line, SHAPES[rnd.nextInt(SHAPES.length)]));
                case 5 -> lines.set(at, rnd.nextBoolean() ? "  " + line : line.replaceFirst("^  ", ""));
                case 6 ->
                    lines.add(
                            at,
                            (rnd.nextInt(4) == 0 ? "unknownKey" : keys.get(rnd.nextInt(keys.size()))) + ": "
                                    + SCALARS[rnd.nextInt(SCALARS.length)]);
                case 7 -> {
                    String moved = lines.remove(at);
                    lines.add(rnd.nextInt(lines.size() + 1), moved);
                }
                default -> {
                    String joined = String.join("\n", lines);
                    return joined.substring(0, rnd.nextInt(joined.length() + 1));
                }
            }
        }
        return String.join("\n", lines);
    }

    /** The line with its value (after "key:" or "- ") replaced; a comment-only or blank line is left alone. */
    private static String withValue(String line, String value) {
        int colon = line.indexOf(": ");
        if (colon < 0 && line.endsWith(":")) {
            colon = line.length() - 1;
        }
        if (colon < 0 || line.strip().startsWith("#")) {
            return line;
        }
        return line.substring(0, colon) + ": " + value;
    }

    /** Every top-level setting in the text holds exactly what its {@link Setting#type} makes of the file's value. */
    private static void assertLoadedAsWritten(AgentConfig c, String text, String what) throws Exception {
        JsonNode root = YAML.readTree(text);
        for (Setting s : Setting.values()) {
            JsonNode v = root.get(s.key());
            Object expected = s.type().fromText(v == null ? s.defaultValue() : v.asText());
            assertThat(valueOf(c, s)).as("%s%nsetting %s", what, s.key()).isEqualTo(expected);
        }
    }

    private static Object valueOf(AgentConfig c, Setting s) {
        return switch (s) {
            case NODE_NAME -> c.nodeName();
            case SYSFS_ROOT -> c.sysfsRoot();
            case CGROUP_ROOT -> c.cgroupRoot();
            case STATE_DIR -> c.stateDir();
            case POD_RESOURCES_SOCKET -> c.podResourcesSocket();
            case POD_RESOURCES_SOCKET_MODE -> c.podResourcesSocketMode();
            case KUBELET_POD_RESOURCES_SOCKET -> c.kubeletPodResourcesSocket().orElse(null);
            case METRICS_PORT -> c.metricsPort();
            case HEALTH_PORT -> c.healthPort();
            case LOG_LEVEL -> c.logLevel();
            case LOG_FORMAT -> c.logFormat();
            case RECONCILE_PERIOD -> c.reconcilePeriod();
            case KUBELET_CHECK_SOCKET -> c.kubeletCheckSocket().orElse(null);
            case KUBELET_CONFIG_FILE -> c.kubeletConfigFile().orElse(null);
            case METRICS_BIND_ADDRESS -> c.metricsBindAddress();
            case HEALTH_BIND_ADDRESS -> c.healthBindAddress();
            case POD_RESOURCES_QPS -> c.podResourcesQps();
            case POD_RESOURCES_BURST -> c.podResourcesBurst();
            case KUBELET_CALL_TIMEOUT -> c.kubeletCallTimeout();
            case CGROUP_DRIVER -> c.cgroupDriver().orElse(null);
            case EXCLUSIVE_CPU_QUOTA -> c.exclusiveCpuQuota();
            case PINNING -> c.pinning();
            case NRI_SOCKET -> c.nri().socket();
            case NRI_PLUGIN_NAME -> c.nri().pluginName();
            case NRI_PLUGIN_INDEX -> c.nri().pluginIndex();
            case STATUS_MIN_INTERVAL -> c.statusMinInterval();
            case KUBELET_CGROUP_ROOT -> c.kubeletCgroupRoot();
            case POLICY_NAME -> c.policyName().orElse(null);
            case METRICS_SECURITY -> c.metricsSecurity();
            case METRICS_CERT_FILE -> c.metricsTls().certFile().orElse(null);
            case METRICS_KEY_FILE -> c.metricsTls().keyFile().orElse(null);
            case METRICS_AUTH_CACHE_TTL -> c.metricsTls().cacheTtl();
        };
    }

    private static String mutate(Random rnd, String valid) {
        StringBuilder sb = new StringBuilder(valid);
        int rounds = 1 + rnd.nextInt(3);
        for (int k = 0; k < rounds && !sb.isEmpty(); k++) {
            int at = rnd.nextInt(sb.length());
            switch (rnd.nextInt(6)) {
                case 0 -> sb.setCharAt(at, TOKENS.charAt(rnd.nextInt(TOKENS.length())));
                case 1 -> sb.deleteCharAt(at);
                case 2 -> sb.insert(at, WORDS[rnd.nextInt(WORDS.length)]);
                case 3 -> sb.setLength(at);
                case 4 -> sb.setCharAt(at, (char) rnd.nextInt(0x250));
                default -> {
                    int end = Math.min(sb.length(), at + 1 + rnd.nextInt(40));
                    sb.insert(rnd.nextInt(sb.length() + 1), sb.substring(at, end));
                }
            }
        }
        return sb.toString();
    }
}
