package io.podnuma.crds.compat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The CRD copies under {@code crds/released/<version>/} and the build's generated CRDs, as JSON trees by name. */
final class ReleasedCrds {

    static final Path RELEASED = Path.of("released");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private ReleasedCrds() {}

    /** The newest release directory, by numeric version parts ({@code 0.10.0} after {@code 0.9.1}). */
    static Path latest() {
        try (Stream<Path> dirs = Files.list(RELEASED)) {
            return dirs.filter(Files::isDirectory)
                    .max(Comparator.comparing(p -> key(p.getFileName().toString())))
                    .orElseThrow(() -> new AssertionError("no release under " + RELEASED.toAbsolutePath()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String key(String version) {
        StringBuilder sb = new StringBuilder();
        for (String part : version.split("\\.")) {
            sb.append(String.format("%010d", Long.parseLong(part)));
        }
        return sb.toString();
    }

    /** Every {@code *.yml} in {@code dir} by its {@code metadata.name}. */
    static Map<String, JsonNode> read(Path dir) {
        Map<String, JsonNode> out = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f :
                    files.filter(p -> p.toString().endsWith(".yml")).sorted().toList()) {
                JsonNode crd = YAML.readTree(f.toFile());
                out.put(crd.path("metadata").path("name").asText(), crd);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the CRDs in " + dir, e);
        }
        return out;
    }
}
