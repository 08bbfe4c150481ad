package io.podnuma.oci;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The packer's image layout tars: read back by this module's reader and by the system's tar, and reproducible. */
class OciLayoutWriterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ImageName NAME = new ImageName("podnuma.local/sample", "1.2.3-SNAPSHOT");
    private static final String DEEP_DIR = "/opt/podnuma/" + "a-rather-long-directory-name/".repeat(4) + "bin";

    @TempDir
    Path dir;

    private Path program;
    private Path data;

    @BeforeEach
    void hostFiles() throws IOException {
        program = Files.writeString(dir.resolve("program"), "#!not really\n");
        data = Files.write(dir.resolve("data"), new byte[1500]);
    }

    private ImageSpec sample() {
        return new ImageSpec(
                NAME,
                List.of("/bin/program", "--flag"),
                List.of("run"),
                List.of("PATH=/bin"),
                List.of(
                        new LayerEntry.HostFile(LayerPath.of("/bin/program"), program, FileMode.EXECUTABLE),
                        new LayerEntry.HostFile(LayerPath.of(DEEP_DIR + "/data.bin"), data, FileMode.REGULAR),
                        new LayerEntry.Symlink(LayerPath.of("/lib64/loader"), "/lib/loader"),
                        new LayerEntry.Directory(LayerPath.of("/tmp"), FileMode.STICKY_SCRATCH)));
    }

    @Test
    void theIndexNamesTheImageAndEveryDescriptorMatchesItsBlob() throws IOException {
        OciArchive archive = new OciLayoutWriter().write(sample(), dir.resolve("image.tar"));
        TarEntries outer = TarEntries.read(archive.file());

        assertThat(outer.names()).contains("oci-layout", "index.json", "blobs/", "blobs/sha256/");
        assertThat(JSON.readTree(outer.get("oci-layout").content())
                        .path("imageLayoutVersion")
                        .asText())
                .isEqualTo("1.0.0");
        JsonNode index = JSON.readTree(outer.get("index.json").content());
        assertThat(index.path("schemaVersion").asInt()).isEqualTo(2);
        assertThat(index.path("manifests")).hasSize(1);
        JsonNode entry = index.path("manifests").get(0);
        assertThat(entry.path("annotations").path("io.containerd.image.name").asText())
                .isEqualTo("podnuma.local/sample:1.2.3-SNAPSHOT");
        assertThat(entry.path("annotations")
                        .path("org.opencontainers.image.ref.name")
                        .asText())
                .isEqualTo("1.2.3-SNAPSHOT");
        assertThat(entry.path("mediaType").asText()).isEqualTo("application/vnd.oci.image.manifest.v1+json");

        JsonNode manifest = JSON.readTree(blob(outer, entry));
        assertThat(manifest.path("schemaVersion").asInt()).isEqualTo(2);
        JsonNode config = JSON.readTree(blob(outer, manifest.path("config")));
        assertThat(manifest.path("config").path("mediaType").asText())
                .isEqualTo("application/vnd.oci.image.config.v1+json");
        assertThat(manifest.path("layers")).hasSize(1);
        JsonNode layerDescriptor = manifest.path("layers").get(0);
        assertThat(layerDescriptor.path("mediaType").asText()).isEqualTo("application/vnd.oci.image.layer.v1.tar");
        byte[] layer = blob(outer, layerDescriptor);

        assertThat(config.path("rootfs").path("diff_ids").get(0).asText())
                .isEqualTo(layerDescriptor.path("digest").asText());
        assertThat(config.path("architecture").asText()).isEqualTo("amd64");
        assertThat(config.path("os").asText()).isEqualTo("linux");
        assertThat(config.path("config").path("Entrypoint").toString()).isEqualTo("[\"/bin/program\",\"--flag\"]");
        assertThat(config.path("config").path("Cmd").toString()).isEqualTo("[\"run\"]");
        assertThat(config.path("config").path("Env").toString()).isEqualTo("[\"PATH=/bin\"]");
        assertThat(config.path("config").has("User"))
                .as("root: the default, not written")
                .isFalse();

        assertThat(archive.layer().digest().toString())
                .isEqualTo(layerDescriptor.path("digest").asText());
        assertThat(archive.manifest().digest().toString())
                .isEqualTo(entry.path("digest").asText());
        assertThat(archive.size()).isEqualTo(Files.size(archive.file()));
        assertThat(TarEntries.read(layer).names()).isNotEmpty();
    }

    @Test
    void aNonRootImageNamesItsUserNumerically() throws IOException {
        ImageSpec root = sample();
        ImageSpec nonRoot = new ImageSpec(
                root.name(), root.entrypoint(), root.cmd(), root.env(), root.entries(), ImageUser.NONROOT);
        TarEntries outer = TarEntries.read(
                new OciLayoutWriter().write(nonRoot, dir.resolve("nonroot.tar")).file());
        JsonNode manifest = JSON.readTree(blob(
                outer,
                JSON.readTree(outer.get("index.json").content())
                        .path("manifests")
                        .get(0)));
        JsonNode config = JSON.readTree(blob(outer, manifest.path("config")));
        assertThat(config.path("config").path("User").asText()).isEqualTo("65532:65532");
    }

    @Test
    void theLayerHasTheModesGivenParentDirectoriesRootOwnershipAndNoTimestamps() throws IOException {
        TarEntries layer = layerOf(new OciLayoutWriter().write(sample(), dir.resolve("image.tar")));

        TarEntries.Entry bin = layer.get("bin/program");
        assertThat(bin.type()).isEqualTo('0');
        assertThat(bin.mode()).isEqualTo(0755);
        assertThat(bin.text()).isEqualTo("#!not really\n");
        TarEntries.Entry deep = layer.get(DEEP_DIR.substring(1) + "/data.bin");
        assertThat(deep.name().length()).isGreaterThan(100);
        assertThat(deep.mode()).isEqualTo(0644);
        assertThat(deep.content()).hasSize(1500);
        assertThat(layer.get("lib64/loader").type()).isEqualTo('2');
        assertThat(layer.get("lib64/loader").linkTarget()).isEqualTo("/lib/loader");
        assertThat(layer.get("tmp/").mode()).isEqualTo(01777);
        for (String parent : List.of("bin/", "lib64/", "opt/", "opt/podnuma/", DEEP_DIR.substring(1) + "/")) {
            assertThat(layer.get(parent).type()).as(parent).isEqualTo('5');
            assertThat(layer.get(parent).mode()).as(parent).isEqualTo(0755);
        }
        for (TarEntries.Entry e : layer.byName().values()) {
            assertThat(e.uid()).as(e.name()).isZero();
            assertThat(e.gid()).as(e.name()).isZero();
            assertThat(e.mtime()).as(e.name()).isZero();
        }
        // A directory comes before what it holds, so an extracting runtime never creates one implicitly.
        assertThat(layer.names().indexOf("bin/")).isLessThan(layer.names().indexOf("bin/program"));
    }

    @Test
    void theSameInputsGiveTheSameBytes() throws IOException {
        OciArchive first = new OciLayoutWriter().write(sample(), dir.resolve("one.tar"));
        OciArchive second = new OciLayoutWriter().write(sample(), dir.resolve("two.tar"));

        assertThat(Files.readAllBytes(second.file())).isEqualTo(Files.readAllBytes(first.file()));
        assertThat(second.manifest()).isEqualTo(first.manifest());
    }

    @Test
    void imageSpecsRefuseWhatALayerCannotHold() {
        var file = new LayerEntry.HostFile(LayerPath.of("/a/b"), dir, FileMode.REGULAR);
        assertThatThrownBy(() -> new ImageSpec(NAME, List.of("/a/b"), List.of(), List.of(), List.of(file, file)))
                .hasMessageContaining("two layer entries for /a/b");
        var fileAsParent = new LayerEntry.HostFile(LayerPath.of("/a"), dir, FileMode.REGULAR);
        assertThatThrownBy(() -> new ImageSpec(NAME, List.of("/a"), List.of(), List.of(), List.of(file, fileAsParent)))
                .hasMessageContaining("/a is a parent of /a/b but not a directory");
        assertThatThrownBy(() -> new ImageSpec(NAME, List.of(), List.of(), List.of(), List.of()))
                .hasMessageContaining("needs an entrypoint");
        assertThatThrownBy(() -> LayerPath.of("/a/../etc")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LayerPath.of("relative")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ImageName("pause", "1")).hasMessageContaining("with a domain");
        assertThatThrownBy(() -> new ImageName("podnuma.local/pause", "a:b")).hasMessageContaining("tag");
    }

    @Test
    void theSystemTarListsAndUnpacksTheLayoutAndEveryBlobIsNamedByItsDigest() throws Exception {
        OciArchive archive = new OciLayoutWriter().write(sample(), dir.resolve("image.tar"));

        assertThat(systemTar("-tvf", archive.file().toString())).contains("oci-layout", "index.json", "blobs/sha256/");
        Path unpacked = Files.createDirectories(dir.resolve("unpacked"));
        systemTar("-xf", archive.file().toString(), "-C", unpacked.toString());
        assertThat(Files.readString(unpacked.resolve("index.json")))
                .contains("\"io.containerd.image.name\":\"podnuma.local/sample:1.2.3-SNAPSHOT\"");
        try (var blobs = Files.list(unpacked.resolve("blobs/sha256"))) {
            List<Path> all = blobs.toList();
            assertThat(all).hasSize(3);
            for (Path blob : all) {
                assertThat(Digest.of(Files.readAllBytes(blob)).toString()).isEqualTo("sha256:" + blob.getFileName());
            }
        }
    }

    @Test
    void theSystemTarSeesEachLayerFileWithItsMode() throws Exception {
        OciArchive archive = new OciLayoutWriter().write(sample(), dir.resolve("image.tar"));
        Path layer = Files.write(
                dir.resolve("layer.tar"),
                TarEntries.read(archive.file()).get(archive.layer().path()).content());

        List<String> listing = systemTar("-tvf", layer.toString()).lines().toList();
        assertThat(listing)
                .filteredOn(line -> line.endsWith(" bin/program"))
                .singleElement()
                .satisfies(line -> assertThat(line).startsWith("-rwxr-xr-x").contains(" 13 "));
        assertThat(listing)
                .filteredOn(line -> line.endsWith("/data.bin"))
                .singleElement()
                .satisfies(line -> assertThat(line).startsWith("-rw-r--r--").contains(" 1500 "));
    }

    private String systemTar(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("tar"));
        command.addAll(List.of(args));
        Process tar = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("tar.out").toFile())
                .start();
        assertThat(tar.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        String output = Files.readString(dir.resolve("tar.out"));
        assertThat(tar.exitValue()).as(output).isZero();
        return output;
    }

    private static TarEntries layerOf(OciArchive archive) throws IOException {
        return TarEntries.read(
                TarEntries.read(archive.file()).get(archive.layer().path()).content());
    }

    /** The blob a descriptor points at, after checking its size and digest. */
    private static byte[] blob(TarEntries outer, JsonNode descriptor) {
        Digest digest = Digest.parse(descriptor.path("digest").asText());
        byte[] content = outer.get("blobs/sha256/" + digest.hex()).content();
        assertThat(content).hasSize(descriptor.path("size").asInt());
        assertThat(HexFormat.of().formatHex(sha256(content))).isEqualTo(digest.hex());
        return content;
    }

    private static byte[] sha256(byte[] content) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(content);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
