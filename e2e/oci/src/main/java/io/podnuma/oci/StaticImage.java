package io.podnuma.oci;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * An image of one static binary at {@code /<program>} and nothing else, its entrypoint: no libraries, no loader, no
 * shell. The binary is compiled by {@link StaticBinary} and kept next to the tar, so tests can also run it directly.
 */
public final class StaticImage {
    private StaticImage() {}

    /** Compiles {@code source} to {@code outDir/<program>} and writes the image {@code name} to {@code tar}. */
    public static OciArchive build(Path source, Path outDir, String program, ImageName name, Path tar)
            throws IOException {
        Path binary = StaticBinary.compile(source, outDir.resolve(program));
        LayerPath inImage = LayerPath.of("/" + program);
        ImageSpec spec = new ImageSpec(
                name,
                List.of(inImage.absolute()),
                List.of(),
                List.of("PATH=/"),
                List.of(new LayerEntry.HostFile(inImage, binary, FileMode.EXECUTABLE)));
        return new OciLayoutWriter().write(spec, tar);
    }
}
