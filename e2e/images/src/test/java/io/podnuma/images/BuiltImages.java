package io.podnuma.images;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.podnuma.oci.Digest;
import io.podnuma.oci.TarEntries;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

/** The images this module's package phase built (target/images), and a way into their single layer. */
final class BuiltImages {
    private static final ObjectMapper JSON = new ObjectMapper();

    private BuiltImages() {}

    static Path dir() {
        String dir = System.getProperty("podnuma.images.dir");
        assertThat(dir)
                .as("system property podnuma.images.dir (set by the failsafe configuration)")
                .isNotNull();
        return Path.of(dir);
    }

    static String tag() {
        return System.getProperty("podnuma.images.tag");
    }

    static Path file(String name) {
        Path file = dir().resolve(name);
        assertThat(file).as("built by `package`").exists();
        return file;
    }

    static Path tar(PodnumaImage image) {
        Path file = image.tarIn(dir());
        assertThat(file).as("built by `package`").exists();
        return file;
    }

    /** The image's config JSON, found from index.json through the manifest. */
    static JsonNode config(TarEntries outer) throws IOException {
        JsonNode manifest = JSON.readTree(blob(
                outer,
                JSON.readTree(outer.get("index.json").content())
                        .path("manifests")
                        .get(0)));
        return JSON.readTree(blob(outer, manifest.path("config")));
    }

    static TarEntries layer(TarEntries outer) throws IOException {
        JsonNode manifest = JSON.readTree(blob(
                outer,
                JSON.readTree(outer.get("index.json").content())
                        .path("manifests")
                        .get(0)));
        return TarEntries.read(blob(outer, manifest.path("layers").get(0)));
    }

    static String imageName(TarEntries outer) throws IOException {
        return JSON.readTree(outer.get("index.json").content())
                .path("manifests")
                .get(0)
                .path("annotations")
                .path("io.containerd.image.name")
                .asText();
    }

    /** Writes the layer out as a root filesystem: directories, files with their modes, symbolic links. */
    static void extract(TarEntries layer, Path root) throws IOException {
        for (TarEntries.Entry e : layer.byName().values()) {
            Path target = root.resolve(e.name());
            switch (e.type()) {
                case '5' -> Files.createDirectories(target);
                case '2' -> {
                    Files.createDirectories(target.getParent());
                    Files.createSymbolicLink(target, Path.of(e.linkTarget()));
                }
                case '0' -> {
                    Files.createDirectories(target.getParent());
                    Files.write(target, e.content());
                    Files.setPosixFilePermissions(target, permissions(e.mode()));
                }
                default -> throw new AssertionError("unexpected entry type " + e.type() + " of " + e.name());
            }
        }
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {
            PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ
        };
        for (int bit = 0; bit < order.length; bit++) {
            if ((mode & (1 << bit)) != 0) {
                set.add(order[bit]);
            }
        }
        return set;
    }

    private static byte[] blob(TarEntries outer, JsonNode descriptor) {
        return outer.get("blobs/sha256/"
                        + Digest.parse(descriptor.path("digest").asText()).hex())
                .content();
    }
}
