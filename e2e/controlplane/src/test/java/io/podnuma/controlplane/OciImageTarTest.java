package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The image tar is a valid archive in OCI layout (read back with the system's tar), and reproducible. */
class OciImageTarTest {

    @TempDir
    Path tmp;

    @Test
    void writesAnOciLayoutThatTarListsAndThatNamesTheImage() throws Exception {
        Path out = tmp.resolve("image.tar");
        OciImageTar.write(
                out,
                "podnuma.io/test:1",
                List.of(new OciImageTar.LayerFile("bin/hello", "hello".getBytes(StandardCharsets.UTF_8), 0755)),
                List.of("/bin/hello"));

        CommandResult listing = Commands.run(
                        List.of("tar", "-tvf", out.toString()), Map.of(), null, Duration.ofSeconds(30))
                .assertSuccess();
        assertThat(listing.stdout()).contains("oci-layout", "index.json", "blobs/sha256/");
        Path unpacked = Files.createDirectories(tmp.resolve("unpacked"));
        Commands.runChecked(List.of("tar", "-xf", out.toString(), "-C", unpacked.toString()));
        String index = Files.readString(unpacked.resolve("index.json"));
        assertThat(index).contains("\"io.containerd.image.name\":\"podnuma.io/test:1\"");
        try (var blobs = Files.list(unpacked.resolve("blobs/sha256"))) {
            for (Path blob : blobs.toList()) {
                assertThat(OciImageTar.sha256(Files.readAllBytes(blob))).isEqualTo("sha256:" + blob.getFileName());
            }
        }
        Path again = tmp.resolve("again.tar");
        OciImageTar.write(
                again,
                "podnuma.io/test:1",
                List.of(new OciImageTar.LayerFile("bin/hello", "hello".getBytes(StandardCharsets.UTF_8), 0755)),
                List.of("/bin/hello"));
        assertThat(Files.readAllBytes(again)).isEqualTo(Files.readAllBytes(out));
    }

    @Test
    void aLayerFileKeepsItsMode() throws Exception {
        byte[] layer = OciImageTar.tar(Map.of("pause", new byte[] {1, 2, 3}), Map.of("pause", 0755));
        Path tar = tmp.resolve("layer.tar");
        Files.write(tar, layer);
        String listing = Commands.run(List.of("tar", "-tvf", tar.toString()), Map.of(), null, Duration.ofSeconds(30))
                .assertSuccess()
                .stdout();
        assertThat(listing).startsWith("-rwxr-xr-x").contains(" 3 ", "pause");
    }
}
