package io.podnuma.agent.state;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.memory.MemoryBlock;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.pod.ContainerType;
import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.state.PodPlacement;
import io.podnuma.agent.engine.topology.NumaMask;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The versioned JSON form of a {@link NodeState}, as the checkpoint stores it. CPU sets are Linux list
 * strings, NUMA node sets arrays of ids, sizes bytes. The layout is described in node-agent/docs/design.md.
 */
public final class NodeStateCodec {

    /** The format this code writes and the only one it reads. */
    public static final int VERSION = 1;

    private static final Pattern NODE_ID = Pattern.compile("0|[1-9][0-9]{0,2}");

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private NodeStateCodec() {}

    public static String encode(NodeState state) {
        try {
            return JSON.writeValueAsString(toJson(state));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write node state as JSON: " + e.getMessage(), e);
        }
    }

    public static ObjectNode toJson(NodeState state) {
        ObjectNode root = JSON.createObjectNode();
        root.put("version", VERSION);
        root.put("sharedPool", state.sharedPool().toString());
        ArrayNode pods = root.putArray("pods");
        for (PodAssignment p : state.pods().values()) {
            ObjectNode pod = pods.addObject();
            pod.put("uid", p.ref().uid());
            pod.put("namespace", p.ref().namespace());
            pod.put("name", p.ref().name());
            pod.put("qos", p.qos().wireName());
            pod.put("placement", p.placement().wireName());
            nodes(pod.putArray("numaAffinity"), p.numaAffinity());
            pod.put("bubble", p.bubble().toString());
            pod.put("podSharedPool", p.podSharedPool().toString());
            blocks(pod.putArray("memory"), p.podMemory());
            ArrayNode containers = pod.putArray("containers");
            for (ContainerAssignment c : p.containers()) {
                ObjectNode cn = containers.addObject();
                cn.put("name", c.name());
                cn.put("type", c.type().wireName());
                cn.put("kind", c.kind().wireName());
                cn.put("cpus", c.cpus().toString());
                blocks(cn.putArray("memory"), c.memory());
                nodes(cn.putArray("memoryNodes"), c.memoryNodes());
            }
        }
        return root;
    }

    static void nodes(ArrayNode array, NumaMask mask) {
        for (int n : mask.toArray()) {
            array.add(n);
        }
    }

    private static void blocks(ArrayNode array, List<MemoryBlock> blocks) {
        for (MemoryBlock b : blocks) {
            ObjectNode bn = array.addObject();
            bn.put("resource", b.resource().resourceName());
            bn.put("size", b.size());
            nodes(bn.putArray("numaNodes"), b.nodes());
            ObjectNode charged = bn.putObject("charged");
            b.charged().forEach((node, bytes) -> charged.put(Integer.toString(node), bytes));
        }
    }

    /**
     * @throws NodeStateFormatException naming the JSON path and value that cannot be read, or the unsupported
     *     version
     */
    public static NodeState decode(String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new NodeStateFormatException("node state is not valid JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new NodeStateFormatException("node state must be a JSON object with version, sharedPool and pods");
        }
        JsonNode version = root.get("version");
        if (version == null || !version.isInt()) {
            throw new NodeStateFormatException(
                    "node state has no integer \"version\" (got " + version + "): this agent reads version " + VERSION);
        }
        if (version.asInt() != VERSION) {
            throw new NodeStateFormatException("node state version " + version.asInt()
                    + " is not supported: this agent reads version " + VERSION
                    + " only; move the file aside to rebuild the state from the running pods");
        }
        try {
            onlyFields(root, "", "version", "sharedPool", "pods");
            CpuSet shared = cpus(root, "sharedPool", "");
            TreeMap<String, PodAssignment> pods = new TreeMap<>();
            int i = 0;
            for (JsonNode pod : array(root, "pods", "")) {
                PodAssignment p = pod(pod, "pods[" + i++ + "]");
                if (pods.put(p.ref().uid(), p) != null) {
                    throw new NodeStateFormatException("pods: uid " + p.ref().uid() + " appears twice");
                }
            }
            return new NodeState(shared, pods);
        } catch (NodeStateFormatException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new NodeStateFormatException("node state is inconsistent: " + e.getMessage());
        }
    }

    private static PodAssignment pod(JsonNode pod, String path) {
        onlyFields(
                pod,
                path,
                "uid",
                "namespace",
                "name",
                "qos",
                "placement",
                "numaAffinity",
                "bubble",
                "podSharedPool",
                "memory",
                "containers");
        PodRef ref = new PodRef(text(pod, "uid", path), text(pod, "namespace", path), text(pod, "name", path));
        List<ContainerAssignment> containers = new ArrayList<>();
        int i = 0;
        for (JsonNode c : array(pod, "containers", path)) {
            String cp = path + ".containers[" + i++ + "]";
            onlyFields(c, cp, "name", "type", "kind", "cpus", "memory", "memoryNodes");
            containers.add(new ContainerAssignment(
                    text(c, "name", cp),
                    parse(cp + ".type", text(c, "type", cp), ContainerType::parse),
                    parse(cp + ".kind", text(c, "kind", cp), AssignmentKind::parse),
                    cpus(c, "cpus", cp),
                    blocks(c, cp),
                    mask(c, "memoryNodes", cp)));
        }
        return new PodAssignment(
                ref,
                parse(path + ".qos", text(pod, "qos", path), NodeStateCodec::qos),
                parse(path + ".placement", text(pod, "placement", path), PodPlacement::parse),
                mask(pod, "numaAffinity", path),
                cpus(pod, "bubble", path),
                cpus(pod, "podSharedPool", path),
                blocks(pod, path),
                containers);
    }

    private static PodQos qos(String value) {
        for (PodQos q : PodQos.values()) {
            if (q.wireName().equals(value)) {
                return q;
            }
        }
        throw new IllegalArgumentException("allowed Guaranteed, Burstable, BestEffort");
    }

    private static List<MemoryBlock> blocks(JsonNode owner, String path) {
        List<MemoryBlock> out = new ArrayList<>();
        int i = 0;
        for (JsonNode b : array(owner, "memory", path)) {
            String bp = path + ".memory[" + i++ + "]";
            onlyFields(b, bp, "resource", "size", "numaNodes", "charged");
            MemoryResource resource = parse(bp + ".resource", text(b, "resource", bp), MemoryResource::parse);
            JsonNode size = b.get("size");
            if (!isByteCount(size)) {
                throw new NodeStateFormatException(bp + ".size must be a byte count of 0 or more, got " + size);
            }
            Map<Integer, Long> charged = new TreeMap<>();
            JsonNode ch = b.get("charged");
            if (ch == null || !ch.isObject()) {
                throw new NodeStateFormatException(bp + ".charged must be an object of NUMA node to bytes, got " + ch);
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = ch.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                // Exactly as written: "01" or "+1" would be read as node 1, a string or 1.5 as some other number.
                if (!NODE_ID.matcher(e.getKey()).matches() || Integer.parseInt(e.getKey()) >= NumaMask.MAX_NODES) {
                    throw new NodeStateFormatException(bp + ".charged key \"" + e.getKey()
                            + "\" is not a NUMA node id (0.." + (NumaMask.MAX_NODES - 1) + ", no leading zeros)");
                }
                if (!isByteCount(e.getValue())) {
                    throw new NodeStateFormatException(
                            bp + ".charged." + e.getKey() + " must be a byte count of 0 or more, got " + e.getValue());
                }
                charged.put(Integer.parseInt(e.getKey()), e.getValue().longValue());
            }
            try {
                out.add(new MemoryBlock(resource, size.longValue(), mask(b, "numaNodes", bp), charged));
            } catch (IllegalStateException e) {
                throw new NodeStateFormatException(bp + ": " + e.getMessage());
            }
        }
        return out;
    }

    private static String text(JsonNode node, String field, String path) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual()) {
            throw new NodeStateFormatException(where(path, field) + " must be a string, got " + v);
        }
        return v.asText();
    }

    private static CpuSet cpus(JsonNode node, String field, String path) {
        String s = text(node, field, path);
        try {
            return CpuSet.parse(s);
        } catch (IllegalArgumentException e) {
            throw new NodeStateFormatException(where(path, field) + " \"" + s + "\": " + e.getMessage());
        }
    }

    private static NumaMask mask(JsonNode node, String field, String path) {
        List<Integer> ids = new ArrayList<>();
        for (JsonNode n : array(node, field, path)) {
            if (!n.isInt() || n.asInt() < 0 || n.asInt() >= NumaMask.MAX_NODES) {
                throw new NodeStateFormatException(where(path, field) + " holds " + n
                        + ": NUMA node ids are integers 0.." + (NumaMask.MAX_NODES - 1));
            }
            // Written ascending without repeats; anything else is not what this codec wrote.
            if (!ids.isEmpty() && n.asInt() <= ids.getLast()) {
                throw new NodeStateFormatException(where(path, field) + " " + node.get(field)
                        + ": NUMA node ids must be ascending without repeats");
            }
            ids.add(n.asInt());
        }
        return NumaMask.of(ids);
    }

    private static boolean isByteCount(JsonNode n) {
        return n != null && n.isIntegralNumber() && n.canConvertToLong() && n.longValue() >= 0;
    }

    /** A field this codec does not write means another format: reading on would drop what it says. */
    private static void onlyFields(JsonNode node, String path, String... allowed) {
        if (!node.isObject()) {
            throw new NodeStateFormatException(
                    (path.isEmpty() ? "node state" : path) + " must be an object, got " + node);
        }
        List<String> known = List.of(allowed);
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) {
                throw new NodeStateFormatException(where(path, f) + " is not a field of node state version " + VERSION
                        + ": allowed " + String.join(", ", known));
            }
        }
    }

    private static JsonNode array(JsonNode node, String field, String path) {
        JsonNode v = node.get(field);
        if (v == null || !v.isArray()) {
            throw new NodeStateFormatException(where(path, field) + " must be an array, got " + v);
        }
        return v;
    }

    private static <T> T parse(String path, String value, java.util.function.Function<String, T> parser) {
        try {
            return parser.apply(value);
        } catch (IllegalArgumentException e) {
            throw new NodeStateFormatException(path + " \"" + value + "\": " + e.getMessage());
        }
    }

    private static String where(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }
}
