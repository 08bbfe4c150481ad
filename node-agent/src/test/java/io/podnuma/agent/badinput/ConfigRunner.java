package io.podnuma.agent.badinput;

import io.podnuma.agent.config.AgentConfigException;
import io.podnuma.agent.config.AgentConfigLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Feeds an agent config file, flags and environment to the real loader ({@code node-agent run} calls the same
 * {@link AgentConfigLoader#load}), from a file in a directory of its own, and returns every problem it reported. It
 * fails when the loader accepted the input, threw anything but its own exception (a crash), or changed the directory.
 */
final class ConfigRunner {

    static final String FILE = "agent.yaml";
    static final String HEADER = "apiVersion: podnuma.io/v1alpha1\nkind: NodeAgentConfig\n";
    static final String NODE = "nodeName: worker-1\n";
    static final String POLICY = "policy:\n  cpuManager:\n    policy: static\n    reservedCpuCount: 2\n";

    private ConfigRunner() {}

    /** A whole valid file but for {@code policyBody}: the lines under {@code policy:}, indented by two. */
    static String withPolicy(String policyBody) {
        return HEADER + NODE + "policy:\n" + policyBody.indent(2);
    }

    static List<String> refused(Path dir, String yaml, Map<String, String> flags, Map<String, String> env) {
        Path file = dir.resolve(FILE);
        write(file, yaml);
        Map<String, String> withFile = new HashMap<>(flags);
        withFile.putIfAbsent("config", file.toString());
        try {
            AgentConfigLoader.load(withFile, env);
        } catch (AgentConfigException e) {
            if (!read(file).equals(yaml) || list(dir).size() != 1) {
                throw new AssertionError("the loader changed " + dir + ": " + list(dir));
            }
            // The file's path is the test's own: name it as the agent's real file in the answer.
            return e.problems().stream()
                    .map(p -> p.replace(file.toString(), FILE))
                    .toList();
        }
        throw new AssertionError("the loader accepted the input");
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> list(Path dir) {
        try (var s = Files.list(dir)) {
            return s.toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
