package io.podnuma.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Reads JMH's JSON result file and the Go program's result file into {@link Measurement}s. */
public final class ResultFiles {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ResultFiles() {}

    /** JMH's {@code -rf json} output; a benchmark's id comes from its {@code scenario} or {@code shape} param. */
    public static List<Measurement> readJmh(Path file) throws IOException {
        return jmh(JSON.readTree(file.toFile()), file);
    }

    static List<Measurement> jmh(JsonNode root, Object source) {
        if (!root.isArray()) {
            throw new IllegalArgumentException(source + " is not a JMH JSON result (expected an array of runs)");
        }
        List<Measurement> out = new ArrayList<>();
        for (JsonNode run : root) {
            String benchmark = run.path("benchmark").asText();
            JsonNode params = run.path("params");
            String param = params.hasNonNull("scenario")
                    ? params.get("scenario").asText()
                    : params.path("shape").asText(null);
            if (param == null) {
                throw new IllegalArgumentException(
                        source + ": benchmark " + benchmark + " has neither a scenario nor a shape param");
            }
            String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
            String id = benchmark.contains("ExhaustiveMergeBenchmark")
                    ? param + " [" + method + " merger alone]"
                    : switch (method) {
                        case "admitCompact" -> param + " [compact hints]";
                        case "buildCompactAndAdmit" -> param + " [compact hints, built per merge]";
                        default -> param;
                    };
            JsonNode primary = run.path("primaryMetric");
            double scale = nanosPer(primary.path("scoreUnit").asText(), source);
            out.add(new Measurement(
                    id,
                    Measurement.MEASURED,
                    primary.path("score").asDouble() * scale,
                    primary.path("scoreError").asDouble(Double.NaN) * scale,
                    allocationNorm(run.path("secondaryMetrics")),
                    null,
                    ""));
        }
        return out;
    }

    private static double nanosPer(String unit, Object source) {
        return switch (unit) {
            case "ns/op" -> 1;
            case "us/op" -> 1e3;
            case "ms/op" -> 1e6;
            case "s/op" -> 1e9;
            default ->
                throw new IllegalArgumentException(
                        source + ": unsupported score unit \"" + unit + "\" (run JMH in average-time mode, -bm avgt)");
        };
    }

    /** {@code gc.alloc.rate.norm} from {@code -prof gc} (older JMH prefixes it with a middle dot). */
    private static double allocationNorm(JsonNode secondary) {
        for (Iterator<Map.Entry<String, JsonNode>> it = secondary.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().endsWith("gc.alloc.rate.norm")) {
                return e.getValue().path("score").asDouble(Double.NaN);
            }
        }
        return Double.NaN;
    }

    /** The Go program's {@code -out} file. */
    public static List<Measurement> readKubelet(Path file) throws IOException {
        return kubelet(JSON.readTree(file.toFile()), file);
    }

    static List<Measurement> kubelet(JsonNode root, Object source) {
        if (!root.isArray()) {
            throw new IllegalArgumentException(source + " is not a kubeletbench result (expected an array)");
        }
        List<Measurement> out = new ArrayList<>();
        for (JsonNode r : root) {
            out.add(new Measurement(
                    r.path("id").asText(),
                    r.path("status").asText(),
                    r.path("nsPerOp").asDouble(Double.NaN),
                    Double.NaN,
                    r.path("bytesPerOp").asDouble(Double.NaN),
                    r.hasNonNull("sameAnswer") ? r.get("sameAnswer").asBoolean() : null,
                    r.path("note").asText("")));
        }
        return out;
    }

    /** Prints a bench's result table after a blank line and, with {@code out}, keeps it there too. */
    public static void printAndKeep(String table, java.nio.file.Path out) throws IOException {
        System.out.println();
        System.out.println(table);
        if (out != null) {
            java.nio.file.Files.createDirectories(out.toAbsolutePath().getParent());
            java.nio.file.Files.writeString(out, table);
        }
    }
}
