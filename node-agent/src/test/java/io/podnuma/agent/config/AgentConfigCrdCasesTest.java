package io.podnuma.agent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every policy the API server refuses ({@code crds/src/test/resources/invalid}, each with the API server's message in
 * its {@code # expect:} lines) is refused by the agent too when it arrives in the agent's own file, naming the same
 * field (with {@code policy.} for {@code spec.}) and the same value.
 */
class AgentConfigCrdCasesTest {

    private static final Path INVALID = Path.of("../crds/src/test/resources/invalid");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The field the API server names: after "is invalid:", "* ", or in "unknown field". */
    private static final Pattern FIELD =
            Pattern.compile("(?:invalid: |\\* |unknown field \")(spec[A-Za-z0-9.\\[\\]]*)");

    private static final Pattern VALUE = Pattern.compile("(?:Invalid|Unsupported) value: (\"[^\"]*\"|-?[0-9]+)");

    /**
     * Cases about the policy object, not the spec the agent's file holds: a selector is what picks the nodes of a
     * policy object (the operator already chose this node, so the file may leave it out), and a policy's name must
     * name its agents' objects (the operator renders them; the agent's file carries no object name).
     */
    private static final java.util.Set<String> NOT_FOR_THE_AGENT = java.util.Set.of(
            "missing-node-selector.yaml",
            "a-policy-name-that-is-fifty-characters-long-000000.yaml",
            "low.latency.yaml");

    static Stream<Path> invalidPolicies() throws IOException {
        try (Stream<Path> files = Files.list(INVALID)) {
            List<Path> all = files.filter(f -> f.toString().endsWith(".yaml"))
                    .filter(f -> !NOT_FOR_THE_AGENT.contains(f.getFileName().toString()))
                    .sorted()
                    .toList();
            assertThat(all).as("the crds module's invalid cases").hasSizeGreaterThan(30);
            return all.stream();
        }
    }

    @ParameterizedTest
    @MethodSource("invalidPolicies")
    void theAgentRefusesWhatTheApiServerRefuses(Path file) throws IOException {
        String text = Files.readString(file);
        String expect = String.join(
                " ",
                text.lines()
                        .filter(l -> l.startsWith("# expect:"))
                        .map(l -> l.substring("# expect:".length()))
                        .toList());
        Matcher field = FIELD.matcher(expect);
        assertThat(field.find())
                .as("%s names a field in its # expect: lines", file)
                .isTrue();
        String path = "policy" + field.group(1).substring("spec".length());

        String config = AgentConfigLoaderTest.HEADER + "nodeName: worker-1\n" + policyLine(text);
        assertThatThrownBy(() -> AgentConfigLoader.parse(config, "agent.yaml", Map.of(), Map.of()))
                .as(file.getFileName().toString())
                .isInstanceOf(AgentConfigException.class)
                .satisfies(e -> {
                    List<String> problems = ((AgentConfigException) e).problems();
                    String last = path.substring(path.lastIndexOf('.') + 1);
                    String parent = path.substring(0, Math.max(path.lastIndexOf('.'), 0));
                    String named = expect.contains("unknown field")
                            ? "agent.yaml: " + parent + ": unknown key \"" + last + "\""
                            : "agent.yaml: " + path;
                    assertThat(problems)
                            .as("%s: %s", file.getFileName(), problems)
                            .anySatisfy(p -> {
                                assertThat(p).startsWith(named);
                                Matcher value = VALUE.matcher(expect);
                                if (value.find()) {
                                    assertThat(p).contains(value.group(1));
                                }
                            });
                });
    }

    @Test
    void theSpecOfAPolicyWithANameTheApiServerRefusesIsFineInTheAgentsFile() throws IOException {
        for (String file : List.of("a-policy-name-that-is-fifty-characters-long-000000.yaml", "low.latency.yaml")) {
            String text = Files.readString(INVALID.resolve(file));
            String config = AgentConfigLoaderTest.HEADER + "nodeName: worker-1\n" + policyLine(text);
            assertThat(AgentConfigLoader.parse(config, "agent.yaml", Map.of(), Map.of())
                            .policy())
                    .as(file)
                    .isNotNull();
        }
    }

    @Test
    void aPolicyWithoutNodeSelectorIsFineInTheAgentsFile() throws IOException {
        String text = Files.readString(INVALID.resolve("missing-node-selector.yaml"));
        String config = AgentConfigLoaderTest.HEADER + "nodeName: worker-1\n" + policyLine(text);
        assertThat(AgentConfigLoader.parse(config, "agent.yaml", Map.of(), Map.of())
                        .policy()
                        .nodeSelector())
                .isNull();
    }

    /** {@code policy: <the spec as flow YAML>}, or nothing when the object has no spec. */
    private static String policyLine(String objectYaml) throws IOException {
        JsonNode spec = YAML.readTree(objectYaml).get("spec");
        return spec == null || spec.isNull() ? "" : "policy: " + JSON.writeValueAsString(spec) + "\n";
    }
}
