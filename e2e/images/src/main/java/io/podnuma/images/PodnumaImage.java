package io.podnuma.images;

import io.podnuma.oci.ImageName;
import io.podnuma.oci.PauseImage;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The images this module builds, by repository and tar file. Their tag is the project version, except pause's: it is
 * the one sandbox image name ({@link PauseImage#NAME}) the real node's containerd pins. The tars are in
 * {@code e2e/images/target/images/} after {@code package}. The real-node fixture imports them with
 * {@code ctr -n k8s.io images import} and pods use them with {@code imagePullPolicy: Never}.
 */
public enum PodnumaImage {
    /** The pod sandbox process: containerd's {@code pinned_images.sandbox}; built by {@link PauseImage}. */
    PAUSE(PauseImage.NAME, PauseImage.TAR_FILE_NAME),
    /** Prints "affinity cpus=<list> mems=<list>" at start, on change and on SIGUSR1; {@code /workload report}. */
    WORKLOAD("podnuma.local/workload", "workload-image.tar"),
    /** The node agent: entrypoint java with node-agent/jvm.flags, default command {@code run}. */
    NODE_AGENT("podnuma.local/node-agent", "node-agent-image.tar"),
    /** The operator: entrypoint java with operator/jvm.flags, default command {@code run}, user 65532. */
    OPERATOR("podnuma.local/operator", "operator-image.tar");

    /** Where {@code package} writes the tars, relative to the repository root. */
    public static final String BUILD_DIR = "e2e/images/target/images";

    private final String repository;
    private final Optional<ImageName> fixedName;
    private final String tarFileName;

    PodnumaImage(String repository, String tarFileName) {
        this.repository = repository;
        this.fixedName = Optional.empty();
        this.tarFileName = tarFileName;
    }

    PodnumaImage(ImageName fixedName, String tarFileName) {
        this.repository = fixedName.repository();
        this.fixedName = Optional.of(fixedName);
        this.tarFileName = tarFileName;
    }

    /** The image's name when the build's tag is {@code tag} (pause keeps its own). */
    public ImageName name(String tag) {
        return fixedName.orElseGet(() -> new ImageName(repository, tag));
    }

    public String repository() {
        return repository;
    }

    public Path tarIn(Path imagesDir) {
        return imagesDir.resolve(tarFileName);
    }

    /**
     * The image's CycloneDX SBOM beside its tar ({@code node-agent-image.cdx.json}), written by the build for the Java
     * images; the same file is in the image at {@code /opt/podnuma/sbom.cdx.json}.
     */
    public Path sbomIn(Path imagesDir) {
        return imagesDir.resolve(tarFileName.replaceAll("\\.tar$", "") + ".cdx.json");
    }
}
