package io.podnuma.crds.settings;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SettingSourcesTest {

    /** Three settings of a made-up component: a port with a default, a required name, a list. */
    enum Demo implements SettingDefinition {
        PORT("port", "8080", "the port", new SettingType.Text(SettingValues::port)),
        NAME("name", null, "the name", new SettingType.Text(SettingValues::dnsLabel)),
        TAGS(
                "extraTags",
                "[]",
                "tags",
                new SettingType.Structure(JsonNodeType.ARRAY, "a list of text, e.g. [\"a\"]", n -> n.size()));

        private final Spec spec;

        Demo(String key, String defaultValue, String description, SettingType type) {
            this.spec = new Spec(key, defaultValue, description, type);
        }

        @Override
        public Spec spec() {
            return spec;
        }

        @Override
        public String env() {
            return "DEMO_" + name();
        }
    }

    private final List<String> problems = new ArrayList<>();

    private SettingSources.Resolved<Demo> resolve(
            Map<String, String> flags, Map<String, String> env, Map<Demo, SettingSources.FileEntry> file) {
        return SettingSources.resolve(
                Demo.class, flags, env, "demo.yaml", s -> Optional.ofNullable(file.get(s)), problems);
    }

    private static SettingSources.FileEntry inFile(String text) {
        return new SettingSources.FileEntry.Value(TextNode.valueOf(text));
    }

    @Test
    void aFlagWinsOverItsVariableTheVariableOverTheFileTheFileOverTheDefault() {
        var all = resolve(
                Map.of("port", "1", "name", "from-flag"),
                Map.of("DEMO_PORT", "2", "DEMO_NAME", "from-env", "DEMO_TAGS", "[\"a\",\"b\"]"),
                Map.of(Demo.PORT, inFile("3"), Demo.TAGS, inFile("not used")));
        assertThat(problems).isEmpty();
        assertThat(all.values())
                .containsExactlyInAnyOrderEntriesOf(Map.of(Demo.PORT, 1, Demo.NAME, "from-flag", Demo.TAGS, 2));

        var fileAndDefault = resolve(Map.of(), Map.of(), Map.of(Demo.NAME, inFile("from-file")));
        assertThat(problems).isEmpty();
        assertThat(fileAndDefault.values())
                .containsExactlyInAnyOrderEntriesOf(Map.of(Demo.PORT, 8080, Demo.NAME, "from-file", Demo.TAGS, 0));
    }

    @Test
    void everyProblemIsNamedWithItsSourceItsValueAndWhatIsAllowedAndTheSettingIsUnreadable() {
        var r = resolve(
                Map.of("port", "70000"),
                Map.of("DEMO_TAGS", "{\"a\":1}"),
                Map.of(Demo.NAME, new SettingSources.FileEntry.Problem("demo.yaml: name has no value")));

        assertThat(problems)
                .containsExactly(
                        "flag --port = \"70000\": allowed a TCP port 1..65535",
                        "demo.yaml: name has no value",
                        "environment DEMO_TAGS = {\"a\":1}: allowed a list of text, e.g. [\"a\"], found a map");
        assertThat(r.values()).isEmpty();
        assertThat(r.unreadable()).containsExactly(Demo.PORT, Demo.NAME, Demo.TAGS);
    }

    @Test
    void aSettingWithoutDefaultAndWithoutSourceIsRequiredNamingEveryWayToSetIt() {
        var r = resolve(Map.of(), Map.of(), Map.of());
        assertThat(problems)
                .containsExactly("name is required (the name): set it in the file, with --name or with DEMO_NAME");
        assertThat(r.unreadable()).containsExactly(Demo.NAME);
    }

    @Test
    void aFlagNoSettingHasIsRefusedNamingTheAllowedOnesInOrder() {
        assertThat(SettingSources.unknownFlags(Demo.class, "config", Map.of("port", "1", "prot", "1", "a", "")))
                .containsExactly(
                        "unknown flag --a: allowed --config, --port, --name, --extra-tags",
                        "unknown flag --prot: allowed --config, --port, --name, --extra-tags");
    }

    @Test
    void aStructuredSettingSaysInHelpThatItIsJsonOnTheCommandLine() {
        assertThat(Demo.TAGS.helpRow())
                .isEqualTo(new SettingsHelp.Row(
                        "extra-tags", "DEMO_TAGS", "[]", "tags (JSON as a flag or variable, YAML in the file)"));
        assertThat(Demo.PORT.helpRow()).isEqualTo(new SettingsHelp.Row("port", "DEMO_PORT", "8080", "the port"));
    }
}
