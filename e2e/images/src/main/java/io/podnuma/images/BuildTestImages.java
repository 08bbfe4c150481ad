package io.podnuma.images;

import io.podnuma.oci.OciArchive;
import io.podnuma.oci.PauseImage;
import io.podnuma.oci.StaticImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Builds the two images the real-node tests run besides the agent, from the C sources of this module:
 * <ul>
 *   <li>{@link PauseImage#NAME}: the sandbox process ({@code pause.c} of podnuma-oci), for containerd's
 *       {@code pinned_images.sandbox}: the same image the real-node fixture builds for itself;
 *   <li>{@code podnuma.local/workload:<version>}: a process that prints its own CPU and memory-node affinity
 *       ({@code workload.c}), read with {@code kubectl logs}.
 * </ul>
 * Arguments: the C source directory, the output directory, the image tag. Writes {@code pause} and
 * {@code workload} (the binaries, also run directly by this module's tests) and their image tars.
 */
public final class BuildTestImages {
    private BuildTestImages() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: BuildTestImages <c source dir> <output dir> <tag>");
        }
        Path sources = Path.of(args[0]);
        Path out = Path.of(args[1]);
        String tag = args[2];
        Files.createDirectories(out);
        for (OciArchive archive : List.of(
                PauseImage.build(out),
                StaticImage.build(
                        sources.resolve("workload.c"),
                        out,
                        "workload",
                        PodnumaImage.WORKLOAD.name(tag),
                        PodnumaImage.WORKLOAD.tarIn(out)))) {
            System.out.printf("podnuma images: %s → %s (%,d bytes)%n", archive.name(), archive.file(), archive.size());
        }
    }
}
