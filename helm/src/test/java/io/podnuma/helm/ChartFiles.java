package io.podnuma.helm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.testkit.Repository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The chart's files in this checkout, read as text or as trees. */
public final class ChartFiles {

    public static final ObjectMapper JSON = new ObjectMapper();
    public static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private ChartFiles() {}

    /** The chart directory, {@code helm/podnuma}. */
    public static Path chart() {
        return Repository.resolve("helm/podnuma");
    }

    /**
     * {@code helm install} of the chart from the repository into {@code namespace} (created), with {@code --set
     * values}, waiting up to {@code timeout} for the release to be ready.
     */
    public static void install(ControlPlane plane, String release, String namespace, String values, String timeout) {
        plane.helm(
                        "install",
                        release,
                        chart().toString(),
                        "--namespace",
                        namespace,
                        "--create-namespace",
                        "--set",
                        values,
                        "--wait",
                        "--timeout",
                        timeout)
                .assertSuccess();
    }

    public static Path file(String relative) {
        return chart().resolve(relative);
    }

    public static String text(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    public static JsonNode schema() {
        return tree(JSON, file("values.schema.json"));
    }

    public static JsonNode values() {
        return tree(YAML, file("values.yaml"));
    }

    public static JsonNode chartYaml() {
        return tree(YAML, file("Chart.yaml"));
    }

    public static JsonNode yaml(String text) {
        try {
            return YAML.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException("not YAML: " + text, e);
        }
    }

    private static JsonNode tree(ObjectMapper mapper, Path file) {
        try {
            return mapper.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot parse " + file, e);
        }
    }
}
