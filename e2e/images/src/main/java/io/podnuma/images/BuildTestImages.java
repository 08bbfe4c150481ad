package io.podnuma.images;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Builds the two images the real-node tests run besides the agent, from the C sources of this module:
 * <ul>
 *   <li>{@code podnuma.local/pause:<version>}: the sandbox process ({@code pause.c}), for containerd's
 *       {@code pinned_images.sandbox};
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
                staticImage(sources, out, "pause", PodnumaImage.PAUSE, tag),
                staticImage(sources, out, "workload", PodnumaImage.WORKLOAD, tag))) {
            System.out.printf("podnuma images: %s → %s (%,d bytes)%n", archive.name(), archive.file(), archive.size());
        }
    }

    /** One static binary at {@code /<program>} and nothing else; the entrypoint runs it. */
    static OciArchive staticImage(Path sources, Path out, String program, PodnumaImage image, String tag)
            throws IOException {
        Path binary = StaticBinary.compile(sources.resolve(program + ".c"), out.resolve(program));
        LayerPath inImage = LayerPath.of("/" + program);
        ImageSpec spec = new ImageSpec(
                image.name(tag),
                List.of(inImage.absolute()),
                List.of(),
                List.of("PATH=/"),
                List.of(new LayerEntry.HostFile(inImage, binary, FileMode.EXECUTABLE)));
        return new OciLayoutWriter().write(spec, image.tarIn(out));
    }
}
