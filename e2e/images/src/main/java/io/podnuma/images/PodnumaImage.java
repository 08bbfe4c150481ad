package io.podnuma.images;

import java.nio.file.Path;

/**
 * The images this module builds, by repository and tar file. Their tag is the project version; the tars are in
 * {@code e2e/images/target/images/} after {@code package}. The real-node fixture imports them with
 * {@code ctr -n k8s.io images import} and pods use them with {@code imagePullPolicy: Never}.
 */
public enum PodnumaImage {
    /** The pod sandbox process: containerd's {@code pinned_images.sandbox}. */
    PAUSE("podnuma.local/pause", "pause-image.tar"),
    /** Prints "affinity cpus=<list> mems=<list>" at start, on change and on SIGUSR1; {@code /workload report}. */
    WORKLOAD("podnuma.local/workload", "workload-image.tar"),
    /** The node agent: entrypoint java with node-agent/jvm.flags, default command {@code run}. */
    NODE_AGENT("podnuma.local/node-agent", "node-agent-image.tar");

    /** Where {@code package} writes the tars, relative to the repository root. */
    public static final String BUILD_DIR = "e2e/images/target/images";

    private final String repository;
    private final String tarFileName;

    PodnumaImage(String repository, String tarFileName) {
        this.repository = repository;
        this.tarFileName = tarFileName;
    }

    public ImageName name(String tag) {
        return new ImageName(repository, tag);
    }

    public String repository() {
        return repository;
    }

    public Path tarIn(Path imagesDir) {
        return imagesDir.resolve(tarFileName);
    }
}
