package io.podnuma.bench.agent;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

/**
 * Pin latencies of one bench run by path ({@code cgroup} from the agent bench, {@code nri}, {@code nri.stub} and
 * {@code nri.handler} from the NRI bench), in a file the plots ({@code io.podnuma.bench.BenchPlots}) read back.
 */
public record PinFigures(Map<String, LatencySummary> byPath) {

    public static final String CGROUP = "cgroup";
    public static final String NRI = "nri";
    public static final String NRI_STUB = "nri.stub";
    public static final String NRI_HANDLER = "nri.handler";

    public PinFigures {
        byPath = Map.copyOf(byPath);
    }

    public void write(Path file) throws IOException {
        Properties p = new Properties();
        byPath.forEach((path, l) -> {
            p.setProperty(path + ".count", Integer.toString(l.count()));
            p.setProperty(path + ".p50Nanos", Long.toString(l.p50Nanos()));
            p.setProperty(path + ".p99Nanos", Long.toString(l.p99Nanos()));
            p.setProperty(path + ".maxNanos", Long.toString(l.maxNanos()));
            p.setProperty(path + ".meanNanos", Long.toString(l.meanNanos()));
        });
        try (Writer w = Files.newBufferedWriter(file)) {
            p.store(w, "podnuma bench: pin latencies by path, for the plots");
        }
    }

    /** The figures of {@code file}; a path missing one of its keys is an error naming the key. */
    public static PinFigures read(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        }
        TreeSet<String> paths = new TreeSet<>();
        p.stringPropertyNames().forEach(k -> paths.add(k.substring(0, Math.max(0, k.lastIndexOf('.')))));
        Map<String, LatencySummary> out = new LinkedHashMap<>();
        for (String path : paths) {
            out.put(
                    path,
                    new LatencySummary(
                            Integer.parseInt(need(p, file, path + ".count")),
                            Long.parseLong(need(p, file, path + ".p50Nanos")),
                            Long.parseLong(need(p, file, path + ".p99Nanos")),
                            Long.parseLong(need(p, file, path + ".maxNanos")),
                            Long.parseLong(need(p, file, path + ".meanNanos"))));
        }
        return new PinFigures(out);
    }

    private static String need(Properties p, Path file, String key) {
        String v = p.getProperty(key);
        if (v == null) {
            throw new IllegalArgumentException(file + ": no " + key + " (written by the bench's --pins)");
        }
        return v;
    }
}
