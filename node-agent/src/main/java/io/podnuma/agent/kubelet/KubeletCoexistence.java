package io.podnuma.agent.kubelet;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.grpc.Status;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.podresources.v1.AllocatableResourcesResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides from what the kubelet says whether it pins containers itself.
 *
 * <p>Its PodResources answer tells what the running kubelet does: {@code GetAllocatableResources} lists CPUs only
 * under the static CPU manager policy and memory blocks only under the Static memory manager policy (both lists are
 * empty with {@code none}). The configuration file tells what it runs with after its next start, and is the only
 * source for the topology manager. Either one naming a policy other than {@code none} is a conflict.
 */
public final class KubeletCoexistence {

    private static final ObjectMapper YAML = new YAMLMapper();

    private KubeletCoexistence() {}

    /** The kubelet managers that place containers, with the configuration field and the value that turns each off. */
    private enum Manager {
        CPU("cpuManagerPolicy", "none", "cpu_manager_state"),
        MEMORY("memoryManagerPolicy", "None", "memory_manager_state"),
        TOPOLOGY("topologyManagerPolicy", "none", null);

        final String configField;
        final String off;
        final String stateFile;

        Manager(String configField, String off, String stateFile) {
            this.configField = configField;
            this.off = off;
            this.stateFile = stateFile;
        }

        String fix() {
            return "set " + configField + ": " + off + " in the kubelet configuration, delete " + stateFile
                    + " in the kubelet's root directory and restart the kubelet";
        }
    }

    /** The verdict on the kubelet's {@code GetAllocatableResources} answer, asked on {@code socket}. */
    public static FileCheck allocatable(Path socket, AllocatableResourcesResponse answer) {
        List<String> conflicts = new ArrayList<>();
        if (answer.getCpuIdsCount() > 0) {
            CpuSet cpus = CpuSet.of(
                    answer.getCpuIdsList().stream().map(Long::intValue).toList());
            conflicts.add(socket + ": the kubelet offers CPUs " + cpus
                    + " for exclusive use (GetAllocatableResources): its CPU manager policy is static and it pins"
                    + " containers itself; " + Manager.CPU.fix());
        }
        if (answer.getMemoryCount() > 0) {
            conflicts.add(socket + ": the kubelet offers " + answer.getMemoryCount()
                    + " NUMA memory blocks (GetAllocatableResources): its memory manager policy is Static and it"
                    + " places containers' memory itself; " + Manager.MEMORY.fix());
        }
        if (conflicts.isEmpty()) {
            return new FileCheck(
                    socket,
                    FileVerdict.COMPATIBLE,
                    socket + ": the kubelet offers no exclusive CPU and no NUMA memory block: its CPU and memory"
                            + " manager policies are none");
        }
        return new FileCheck(socket, FileVerdict.CONFLICT, String.join("; ", conflicts));
    }

    /** The socket is there but its kubelet gave no answer: its policies are unknown. */
    public static FileCheck unanswered(Path socket, Status status, Duration timeout) {
        String why = switch (status.getCode()) {
            // Without the description: it carries the transport's wording, which differs by cause and version.
            case UNAVAILABLE ->
                "no kubelet answers on it (UNAVAILABLE): the kubelet is stopped or restarting, or the socket is stale";
            case DEADLINE_EXCEEDED ->
                "the kubelet did not answer GetAllocatableResources within " + timeout + " (kubeletCallTimeout)";
            case UNIMPLEMENTED ->
                "the kubelet does not serve GetAllocatableResources (a kubelet before 1.23, or its"
                        + " feature gate KubeletPodResourcesGetAllocatable is off): enable the gate, or leave"
                        + " kubeletCheckSocket empty (operator: kubeletRootDir) and rely on kubeletConfigFile";
            default -> "GetAllocatableResources failed: " + status.getCode() + describe(status);
        };
        return new FileCheck(
                socket,
                FileVerdict.UNREADABLE,
                socket + ": " + why + "; its CPU and memory manager policies are unknown, so the agent writes no"
                        + " cpuset until the kubelet answers");
    }

    /** The socket is not there: no kubelet serves PodResources at this root directory (yet). */
    public static FileCheck noSocket(Path socket) {
        return new FileCheck(socket, FileVerdict.NOT_CHECKED, socket + ": not present");
    }

    private static String describe(Status status) {
        return status.getDescription() == null ? "" : ": " + status.getDescription();
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

    /** The verdict on the kubelet's configuration file. */
    public static FileCheck config(Path file) {
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
