package io.podnuma.images;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podnuma.oci.FileMode;
import io.podnuma.oci.ImageName;
import io.podnuma.oci.LayerEntry;
import io.podnuma.oci.LayerPath;
import io.podnuma.oci.TarEntries;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SBOM as ImageSbom writes it for a small layer of known content, and the check the image ITs run on it. */
class ImageSbomTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ImageName IMAGE = new ImageName("podnuma.local/node-agent", "1.2.3");
    private static final ImageSbom.HostPackage LIBC =
            new ImageSbom.HostPackage("libc6", "2.36-9+deb12u14", "amd64", "debian-12");

    @TempDir
    Path dir;

    private Path runtime;
    private Path jdk;
    private Path libc;
    private Path unowned;

    @BeforeEach
    void files() throws IOException {
        runtime = Files.createDirectories(dir.resolve("runtime"));
        Files.createDirectories(runtime.resolve("bin"));
        Files.writeString(runtime.resolve("bin/java"), "ELF");
        Files.writeString(runtime.resolve("release"), "JAVA_VERSION=\"25.0.3\"\nMODULES=\"java.base java.sql\"\n");
        jdk = Files.createDirectories(dir.resolve("jdk"));
        Files.writeString(
                jdk.resolve("release"), "IMPLEMENTOR=\"Eclipse Adoptium\"\nIMPLEMENTOR_VERSION=\"Temurin-25.0.3+9\"\n");
        libc = Files.writeString(dir.resolve("libc.so.6"), "libc");
        unowned = Files.writeString(dir.resolve("libunknown.so"), "unknown");
    }

    @Test
    void namesTheProgramEveryBundledArtifactTheRuntimeAndTheHostPackagesWithVersionsAndPaths() throws IOException {
        List<LayerEntry> entries =
                entries(jar("io.podnuma:podnuma-node-agent:1.2.3", "com.fasterxml.jackson.core:jackson-core:2.20.1"));
        JsonNode sbom = JSON.readTree(ImageSbom.of(subject(), entries));

        assertThat(sbom.path("bomFormat").asText()).isEqualTo("CycloneDX");
        assertThat(sbom.path("specVersion").asText()).isEqualTo("1.6");
        assertThat(sbom.path("serialNumber").asText()).matches("urn:uuid:[0-9a-f-]{36}");
        assertThat(sbom.path("metadata").path("component").path("type").asText())
                .isEqualTo("container");
        assertThat(sbom.path("metadata").path("component").path("name").asText())
                .isEqualTo("podnuma.local/node-agent");

        JsonNode app = component(sbom, "pkg:maven/io.podnuma/podnuma-node-agent@1.2.3");
        assertThat(app.path("type").asText()).isEqualTo("application");
        assertThat(app.path("hashes").get(0).path("content").asText())
                .isEqualTo(ImageSbom.sha256(((LayerEntry.HostFile) entries.get(2)).source()));
        assertThat(SbomAgainstLayer.locations(app)).containsExactly("/opt/podnuma/node-agent.jar");
        JsonNode jackson = component(sbom, "pkg:maven/com.fasterxml.jackson.core/jackson-core@2.20.1");
        assertThat(jackson.path("type").asText()).isEqualTo("library");
        assertThat(jackson.path("version").asText()).isEqualTo("2.20.1");
        assertThat(SbomAgainstLayer.locations(jackson)).containsExactly("/opt/podnuma/node-agent.jar");

        JsonNode jre = component(sbom, "jre:25.0.3");
        assertThat(jre.path("type").asText()).isEqualTo("platform");
        assertThat(jre.path("version").asText()).isEqualTo("25.0.3");
        assertThat(jre.path("supplier").path("name").asText()).isEqualTo("Eclipse Adoptium");
        assertThat(jre.path("cpe").asText()).isEqualTo("cpe:2.3:a:oracle:openjdk:25.0.3:*:*:*:*:*:*:*");
        assertThat(jre.path("description").asText()).contains("Temurin-25.0.3+9");
        assertThat(jre.toString()).contains("java.base,java.sql");
        assertThat(SbomAgainstLayer.locations(jre)).containsExactly("/opt/podnuma/jre");

        JsonNode glibc = component(sbom, "pkg:deb/debian/libc6@2.36-9%2Bdeb12u14?arch=amd64&distro=debian-12");
        assertThat(glibc.path("version").asText()).isEqualTo("2.36-9+deb12u14");
        assertThat(SbomAgainstLayer.locations(glibc)).containsExactly("/lib/x86_64-linux-gnu/libc.so.6");
        JsonNode file = component(sbom, "file:/lib/x86_64-linux-gnu/libunknown.so");
        assertThat(file.path("type").asText()).isEqualTo("file");
        assertThat(file.path("hashes").get(0).path("content").asText()).isEqualTo(ImageSbom.sha256(unowned));

        // The image needs the program, the runtime and the host files; the program bundles its libraries.
        assertThat(dependsOn(sbom, "image:podnuma.local/node-agent:1.2.3"))
                .contains(
                        "pkg:maven/io.podnuma/podnuma-node-agent@1.2.3",
                        "jre:25.0.3",
                        glibc.path("bom-ref").asText());
        assertThat(dependsOn(sbom, "pkg:maven/io.podnuma/podnuma-node-agent@1.2.3"))
                .containsExactly("pkg:maven/com.fasterxml.jackson.core/jackson-core@2.20.1");
        // Reproducible: the same layer, the same bytes.
        assertThat(ImageSbom.of(subject(), entries)).isEqualTo(ImageSbom.of(subject(), entries));
        assertThat(SbomAgainstLayer.unlisted(layer(entries), sbom)).isEmpty();
    }

    @Test
    void theLayerCheckReportsAJarArtifactTheSbomLacksAndAFileOfNoComponent() throws IOException {
        List<LayerEntry> entries = entries(jar("io.podnuma:podnuma-node-agent:1.2.3", "org.yaml:snakeyaml:2.5"));
        ObjectNode sbom = (ObjectNode) JSON.readTree(ImageSbom.of(subject(), entries));
        ArrayNode components = (ArrayNode) sbom.path("components");
        for (int i = components.size() - 1; i >= 0; i--) {
            String ref = components.get(i).path("bom-ref").asText();
            if (ref.startsWith("pkg:maven/org.yaml/") || ref.startsWith("file:")) {
                components.remove(i);
            }
        }
        assertThat(SbomAgainstLayer.unlisted(layer(entries), sbom))
                .containsExactlyInAnyOrder(
                        "/opt/podnuma/node-agent.jar: org.yaml:snakeyaml:2.5",
                        "/lib/x86_64-linux-gnu/libunknown.so: a file of no component");
    }

    @Test
    void aJarWithoutMavenMetadataFailsTheBuild() throws IOException {
        Path bare = dir.resolve("bare.jar");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(bare))) {
            zip.putNextEntry(new ZipEntry("a/B.class"));
        }
        assertThatThrownBy(() -> ImageSbom.of(subject(), entries(bare)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("bare.jar")
                .hasMessageContaining("/opt/podnuma/node-agent.jar")
                .hasMessageContaining("pom.properties");
    }

    @Test
    void purlVersionsArePercentEncoded() {
        assertThat(ImageSbom.purlEncode("2.36-9+deb12u14")).isEqualTo("2.36-9%2Bdeb12u14");
        assertThat(ImageSbom.purlEncode("1:2.4.47-2")).isEqualTo("1:2.4.47-2");
        assertThat(LIBC.purl()).isEqualTo("pkg:deb/debian/libc6@2.36-9%2Bdeb12u14?arch=amd64&distro=debian-12");
    }

    @Test
    void dpkgSearchOutputNamesTheOwnerOfExactlyThatPath() {
        String out = "libc6:amd64: /lib/x86_64-linux-gnu/libc.so.6\nlibc6-dev:amd64: /lib/x86_64-linux-gnu/libc.so\n";
        assertThat(ImageSbom.Dpkg.ownerIn(out, Path.of("/lib/x86_64-linux-gnu/libc.so.6")))
                .contains("libc6:amd64");
        assertThat(ImageSbom.Dpkg.ownerIn(out, Path.of("/lib/x86_64-linux-gnu/libm.so.6")))
                .isEmpty();
    }

    @Test
    void onADebianHostDpkgNamesGlibcsPackageAndVersion() throws IOException {
        Path libcOfHost = Path.of("/lib/x86_64-linux-gnu/libc.so.6");
        assumeThat(Files.exists(libcOfHost) && Files.exists(Path.of("/var/lib/dpkg/status")))
                .as("a Debian-like x86_64 host")
                .isTrue();
        Optional<ImageSbom.HostPackage> owner = ImageSbom.Dpkg.ofHost().owner(libcOfHost);
        assertThat(owner).isPresent();
        assertThat(owner.get().name()).isEqualTo("libc6");
        assertThat(owner.get().version()).matches("\\d+\\.\\d+.*");
    }

    private ImageSbom.Subject subject() {
        return new ImageSbom.Subject(
                IMAGE,
                "io.podnuma:podnuma-node-agent",
                runtime,
                BuildJavaImage.JAVA_HOME,
                jdk,
                file -> file.equals(libc) ? Optional.of(LIBC) : Optional.empty());
    }

    /** The runtime's two files, the jar, glibc, a host file of no package, and a text file of the build. */
    private List<LayerEntry> entries(Path jar) {
        List<LayerEntry> entries = new ArrayList<>();
        entries.add(new LayerEntry.HostFile(
                BuildJavaImage.JAVA_HOME.resolve("bin/java"), runtime.resolve("bin/java"), FileMode.EXECUTABLE));
        entries.add(new LayerEntry.HostFile(
                BuildJavaImage.JAVA_HOME.resolve("release"), runtime.resolve("release"), FileMode.REGULAR));
        entries.add(new LayerEntry.HostFile(LayerPath.of("/opt/podnuma/node-agent.jar"), jar, FileMode.REGULAR));
        entries.add(new LayerEntry.HostFile(LayerPath.of("/lib/x86_64-linux-gnu/libc.so.6"), libc, FileMode.REGULAR));
        entries.add(new LayerEntry.HostFile(
                LayerPath.of("/lib/x86_64-linux-gnu/libunknown.so"), unowned, FileMode.REGULAR));
        entries.add(new LayerEntry.Text(LayerPath.of("/etc/group"), "root:x:0:\n", FileMode.REGULAR));
        return entries;
    }

    /** A shaded jar: a class and a pom.properties for each {@code group:artifact:version}. */
    private Path jar(String... coordinates) throws IOException {
        Path jar = dir.resolve("app.jar");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(jar))) {
            for (String gav : coordinates) {
                String[] p = gav.split(":");
                zip.putNextEntry(new ZipEntry(p[1].replace('-', '_') + "/Main.class"));
                zip.putNextEntry(new ZipEntry("META-INF/maven/" + p[0] + "/" + p[1] + "/pom.properties"));
                OutputStream out = zip;
                out.write(("artifactId=" + p[1] + "\ngroupId=" + p[0] + "\nversion=" + p[2] + "\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
            }
        }
        return jar;
    }

    private static TarEntries layer(List<LayerEntry> entries) throws IOException {
        Map<String, TarEntries.Entry> byName = new LinkedHashMap<>();
        for (LayerEntry e : entries) {
            byte[] content = switch (e) {
                case LayerEntry.HostFile f -> Files.readAllBytes(f.source());
                case LayerEntry.Text t -> t.content().getBytes(StandardCharsets.UTF_8);
                default -> new byte[0];
            };
            String name = e.path().relative();
            byName.put(name, new TarEntries.Entry(name, '0', e.mode().bits(), 0, 0, 0, "", content));
        }
        return new TarEntries(byName);
    }

    private static JsonNode component(JsonNode sbom, String ref) {
        for (JsonNode c : sbom.path("components")) {
            if (c.path("bom-ref").asText().equals(ref)) {
                return c;
            }
        }
        throw new AssertionError("no component " + ref + " in " + sbom.toPrettyString());
    }

    private static List<String> dependsOn(JsonNode sbom, String ref) {
        for (JsonNode d : sbom.path("dependencies")) {
            if (d.path("ref").asText().equals(ref)) {
                return BuiltImages.strings(d.path("dependsOn"));
            }
        }
        throw new AssertionError("no dependency entry for " + ref);
    }
}
