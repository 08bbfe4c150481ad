package io.podnuma.oci;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The one pause (sandbox) image: {@code pause.c} (a resource of this jar, so the real-node fixture can build it at
 * run time without the images module) as a {@link StaticImage}. It is containerd's {@code pinned_images.sandbox}
 * on the real node and the simplest workload image. Its tag is the pause program's own version, not the project's:
 * the sandbox image name is one constant, the same in the images build and in the real node's containerd config.
 */
public final class PauseImage {
    public static final String VERSION = "1";
    public static final ImageName NAME = new ImageName("podnuma.local/pause", VERSION);
    public static final String TAR_FILE_NAME = "pause-image.tar";
    /** What pause.c prints when it starts: a pod's logs show the sandbox ran it. */
    public static final String STARTED_LINE = "podnuma pause: started";
    /** What {@code /pause --version} prints. */
    public static final String VERSION_LINE = "podnuma pause " + VERSION;

    static final String SOURCE_RESOURCE = "pause.c";

    private PauseImage() {}

    /** Compiles {@code dir/pause} from pause.c and writes {@code dir/pause-image.tar}. */
    public static OciArchive build(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path source = dir.resolve(SOURCE_RESOURCE);
        try (InputStream in = PauseImage.class.getResourceAsStream(SOURCE_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("pause.c is missing from the podnuma-oci jar");
            }
            Files.copy(in, source, StandardCopyOption.REPLACE_EXISTING);
        }
        return StaticImage.build(source, dir, "pause", NAME, dir.resolve(TAR_FILE_NAME));
    }
}
