package io.podnuma.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A containerd root with a guest's images already imported and unpacked, made by this host's containerd before the
 * guest boots; the guest copies it into place before its own containerd starts.
 *
 * <p>Why: {@code ctr images import} inside the guest streams every byte of an image through containerd's gRPC
 * content API and hashes it in Go, which takes about 100 s for the 230 MB agent image under software emulation (a
 * plain copy of the same file over 9p takes 3 s there). Natively the import takes a second or two. Nothing in the
 * root names its directory (content by digest, snapshots by number), so the guest's containerd reads it at
 * another path.
 */
final class ContainerdPreload {

    /** The directory under the guest's {@code /work} (the run directory) that holds the root. */
    static final String DIR = "preload";

    private static final Duration IMPORT_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private ContainerdPreload() {}

    /**
     * Imports {@code images} (OCI tars) into a containerd root at {@code runDir/preload/root}, in containerd's
     * {@code k8s.io} namespace (the kubelet's), unpacked for the overlayfs snapshotter; returns what {@code ctr}
     * said it imported.
     */
    static String build(Path binDir, Path runDir, List<Path> images) {
        Path dir = runDir.resolve(DIR);
        Path socket = dir.resolve("state/containerd.sock");
        try {
            LocalControlPlane.deleteRecursively(dir);
            Files.createDirectories(dir.resolve("root"));
            Files.createDirectories(dir.resolve("state"));
            Path config = Files.writeString(dir.resolve("config.toml"), configuration(dir, socket));
            try (ManagedProcess containerd = ManagedProcess.start(
                    "preload-containerd",
                    List.of(binDir.resolve("containerd").toString(), "--config", config.toString()),
                    dir)) {
                StaleRuns.record(runDir, containerd.handle());
                awaitSocket(containerd, socket);
                List<String> cmd = new ArrayList<>(List.of(
                        binDir.resolve("ctr").toString(),
                        "--address",
                        socket.toString(),
                        "-n",
                        "k8s.io",
                        "images",
                        "import"));
                StringBuilder said = new StringBuilder();
                for (Path image : images) {
                    List<String> one = new ArrayList<>(cmd);
                    one.add(image.toString());
                    said.append(Commands.run(one, Map.of(), null, IMPORT_TIMEOUT)
                            .assertSuccess()
                            .stdout());
                }
                return said.toString();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot make the guest's containerd root in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** What the guest runs before its containerd starts: the root copied into place, if one was made. */
    static String copyInto(String guestContainerdRoot) {
        return """
                if [ -d /work/%1$s/root ]; then
                    mkdir -p %2$s && cp -a /work/%1$s/root/. %2$s/ || echo "guest: cannot copy the preloaded images"
                fi""".formatted(DIR, guestContainerdRoot);
    }

    /** containerd without the CRI and NRI: content, metadata, snapshotters and the image service are enough. */
    private static String configuration(Path dir, Path socket) {
        return """
                version = 4
                root = "%1$s/root"
                state = "%1$s/state"
                disabled_plugins = ["io.containerd.grpc.v1.cri", "io.containerd.cri.v1.runtime", \
                "io.containerd.cri.v1.images", "io.containerd.nri.v1.nri"]

                [plugins.'io.containerd.server.v1.grpc']
                  address = "%2$s"

                [plugins.'io.containerd.server.v1.ttrpc']
                  address = "%2$s.ttrpc"

                [plugins.'io.containerd.server.v1.debug']
                  address = "%1$s/state/debug.sock"
                """.formatted(dir, socket);
    }

    private static void awaitSocket(ManagedProcess containerd, Path socket) {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!Files.exists(socket)) {
            if (!containerd.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "the preload containerd did not open " + socket + " within " + READY_TIMEOUT.toSeconds()
                                + " s (log: " + socket.getParent().getParent() + ")");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the preload containerd", e);
            }
        }
    }
}
