package io.podnuma.agent.kubelet;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides from the kubelet's files whether the kubelet pins containers itself.
 *
 * <p>The checkpoints tell what the kubelet actually ran with (it refuses to start when the file's {@code policyName}
 * differs from its configuration, so the file must be removed when the policy changes); the configuration file tells
 * what it runs with after its next start. Either one naming a policy other than {@code none} is a conflict.
 */
public final class KubeletCoexistence {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new YAMLMapper();

    private KubeletCoexistence() {}

    public static KubeletCheck check(KubeletFiles files) {
        List<FileCheck> checks = new ArrayList<>();
        files.cpuManagerState().ifPresent(p -> checks.add(checkpoint(p, Manager.CPU)));
        files.memoryManagerState().ifPresent(p -> checks.add(checkpoint(p, Manager.MEMORY)));
        files.kubeletConfig().ifPresent(p -> checks.add(config(p)));
        return new KubeletCheck(checks);
    }

    /** The kubelet managers that place containers, with the configuration field and the value that turns each off. */
    private enum Manager {
        CPU("cpuManagerPolicy", "none", KubeletFiles.CPU_MANAGER_STATE),
        MEMORY("memoryManagerPolicy", "None", KubeletFiles.MEMORY_MANAGER_STATE),
        TOPOLOGY("topologyManagerPolicy", "none", null);

        final String configField;
        final String off;
        final String stateFile;

        Manager(String configField, String off, String stateFile) {
            this.configField = configField;
            this.off = off;
            this.stateFile = stateFile;
        }
    }

    /** A file's tree, or the verdict that ends its check early (absent, unreadable or not parsable). */
    private record Parsed(JsonNode root, FileCheck verdict) {}

    private static Parsed parse(Path file, ObjectMapper mapper, String format) {
        Optional<String> text;
        try {
            text = read(file);
        } catch (IOException | RuntimeException e) {
            return new Parsed(null, unreadable(file, "cannot be read: " + e));
        }
        if (text.isEmpty()) {
            return new Parsed(null, new FileCheck(file, FileVerdict.NOT_CHECKED, file + ": not present"));
        }
        try {
            return new Parsed(mapper.readTree(text.get()), null);
        } catch (JsonProcessingException e) {
            return new Parsed(
                    null,
                    unreadable(file, "is not valid " + format + " (" + e.getOriginalMessage() + location(e) + ")"));
        } catch (RuntimeException e) {
            return new Parsed(null, unreadable(file, "cannot be parsed: " + e.getMessage()));
        }
    }

    static FileCheck checkpoint(Path file, Manager manager) {
        Parsed parsed = parse(file, JSON, "JSON");
        if (parsed.verdict() != null) {
            return parsed.verdict();
        }
        JsonNode root = parsed.root();
        if (root == null || !root.isObject()) {
            return unreadable(
                    file, "is not a kubelet checkpoint: expected a JSON object with policyName, found " + kind(root));
        }
        JsonNode name = root.get("policyName");
        if (name == null || name.isNull()) {
            return unreadable(
                    file,
                    "has no policyName field, so the kubelet's " + manager.stateFile
                            + " policy is unknown (the kubelet writes {\"policyName\":...,\"checksum\":...})");
        }
        if (!name.isTextual() || name.asText().isBlank()) {
            return unreadable(
                    file, "policyName is " + name + ": expected a policy name such as \"" + manager.off + "\"");
        }
        String value = name.asText();
        if (isOff(value)) {
            return new FileCheck(file, FileVerdict.COMPATIBLE, file + ": policyName is \"" + value + "\"");
        }
        return new FileCheck(
                file,
                FileVerdict.CONFLICT,
                file + ": policyName is \"" + value + "\": the kubelet's "
                        + manager.name().toLowerCase()
                        + " manager pins containers itself; set " + manager.configField + ": " + manager.off
                        + " in the kubelet configuration, delete " + file + " and restart the kubelet");
    }

    static FileCheck config(Path file) {
        Parsed parsed = parse(file, YAML, "YAML");
        if (parsed.verdict() != null) {
            return parsed.verdict();
        }
        JsonNode root = parsed.root();
        if (root == null || root.isMissingNode() || (root.isObject() && root.isEmpty())) {
            // An empty configuration leaves every manager at its default, which is none.
            return new FileCheck(file, FileVerdict.COMPATIBLE, file + ": empty, every manager policy is the default");
        }
        if (!root.isObject()) {
            return unreadable(file, "is not a KubeletConfiguration: expected a YAML mapping, found " + kind(root));
        }
        JsonNode kindNode = root.get("kind");
        if (kindNode != null && !"KubeletConfiguration".equals(kindNode.asText())) {
            return unreadable(file, "kind is \"" + kindNode.asText() + "\", expected KubeletConfiguration");
        }
        List<String> conflicts = new ArrayList<>();
        for (Manager manager : Manager.values()) {
            JsonNode value = root.get(manager.configField);
            if (value == null
                    || value.isNull()
                    || (value.isTextual() && value.asText().isEmpty())) {
                continue; // absent: the kubelet's default, none
            }
            if (!value.isTextual()) {
                return unreadable(
                        file,
                        manager.configField + " is " + value + ": expected a string such as \"" + manager.off + "\"");
            }
            if (!isOff(value.asText())) {
                conflicts.add(file + ": " + manager.configField + " is \"" + value.asText() + "\": set "
                        + manager.configField + ": " + manager.off + " (or remove it) and restart the kubelet");
            }
        }
        if (conflicts.isEmpty()) {
            return new FileCheck(file, FileVerdict.COMPATIBLE, file + ": every manager policy is none");
        }
        return new FileCheck(file, FileVerdict.CONFLICT, String.join("; ", conflicts));
    }

    private static boolean isOff(String policy) {
        return policy.equalsIgnoreCase("none");
    }

    /** The file's text, or empty when it does not exist. */
    private static Optional<String> read(Path file) throws IOException {
        try {
            return Optional.of(Files.readString(file));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    private static FileCheck unreadable(Path file, String problem) {
        return new FileCheck(
                file,
                FileVerdict.UNREADABLE,
                file + " " + problem + "; the agent writes no cpuset until the file is fixed or removed");
    }

    private static String location(JsonProcessingException e) {
        return e.getLocation() == null
                ? ""
                : " at line " + e.getLocation().getLineNr() + ", column "
                        + e.getLocation().getColumnNr();
    }

    private static String kind(JsonNode node) {
        return node == null || node.isMissingNode()
                ? "nothing"
                : node.getNodeType().name().toLowerCase();
    }
}
