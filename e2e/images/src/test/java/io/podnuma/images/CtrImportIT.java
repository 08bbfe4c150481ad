package io.podnuma.images;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What containerd itself makes of the three tars: a throwaway containerd (private root, state, sockets and opt dir
 * under target/, no CRI, no NRI) imports and unpacks each one. Runs where containerd and ctr are found
 * ($PODNUMA_CONTROLPLANE_BIN, built there by the control-plane cache, or PATH) and as root; skips otherwise.
 * containerd dies with this JVM (parent-death signal), and a run after a killed one removes what that left.
 */
class CtrImportIT {
    private static final String NAMESPACE = "podnuma-images-it";
    private static final Path WORK = Path.of("target/ctr-import-it").toAbsolutePath();
    private static final List<Path> FIXED_PATHS = List.of(Path.of("/opt/containerd"), Path.of("/run/containerd"));

    private Path bin;
    private Process containerd;
    private List<Path> fixedPathsBefore;

    @BeforeEach
    void startContainerd() throws Exception {
        assumeThat(isRoot()).as("containerd needs root").isTrue();
        Optional<Path> found = binDir();
        assumeThat(found)
                .as("containerd and ctr: neither in $PODNUMA_CONTROLPLANE_BIN nor on PATH")
                .isPresent();
        bin = found.orElseThrow();
        fixedPathsBefore = FIXED_PATHS.stream().filter(Files::exists).toList();
        removeWork();
        Files.createDirectories(WORK);
        Path config = Files.writeString(WORK.resolve("config.toml"), config());
        containerd = new ProcessBuilder(
                        "setpriv",
                        "--pdeathsig",
                        "KILL",
                        bin.resolve("containerd").toString(),
                        "--config",
                        config.toString())
                .redirectErrorStream(true)
                .redirectOutput(WORK.resolve("containerd.log").toFile())
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (ctr("version").exit() != 0) {
            assertThat(containerd.isAlive()).as(log()).isTrue();
            assertThat(System.nanoTime()).as("containerd ready within 20 s").isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    @AfterEach
    void stopContainerd() throws Exception {
        if (containerd != null) {
            containerd.destroy();
            if (!containerd.waitFor(10, TimeUnit.SECONDS)) {
                containerd.destroyForcibly().waitFor();
            }
            removeWork();
            assertThat(mountsUnder(WORK)).as("mounts left by containerd").isEmpty();
            assertThat(FIXED_PATHS.stream().filter(Files::exists).toList())
                    .as("containerd's default paths, not ours")
                    .containsExactlyElementsOf(fixedPathsBefore);
        }
    }

    @Test
    void containerdImportsAndUnpacksEveryImage() throws Exception {
        for (PodnumaImage image : PodnumaImage.values()) {
            String name = image.name(BuiltImages.tag()).reference();
            Result imported = ctr(
                    "images",
                    "import",
                    "--platform",
                    "linux/amd64",
                    BuiltImages.tar(image).toString());
            assertThat(imported.exit()).as(imported.output()).isZero();
            assertThat(ctr("images", "ls", "-q").output().lines()).contains(name);
            Result check = ctr("images", "check", "name==" + name);
            assertThat(check.output())
                    .as("content complete and unpacked into a snapshot")
                    .containsPattern(name + "\\s.*complete \\(2/2\\).*\\strue");
        }
    }

    private record Result(int exit, String output) {}

    private Result ctr(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                bin.resolve("ctr").toString(),
                "--address",
                WORK.resolve("containerd.sock").toString(),
                "-n",
                NAMESPACE));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), out);
    }

    private static String config() {
        return """
                version = 3
                root = "%1$s/root"
                state = "%1$s/state"
                disabled_plugins = ["io.containerd.grpc.v1.cri", "io.containerd.cri.v1.runtime", \
                "io.containerd.cri.v1.images", "io.containerd.nri.v1.nri"]
                [grpc]
                  address = "%1$s/containerd.sock"
                [ttrpc]
                  address = "%1$s/containerd.sock.ttrpc"
                [plugins."io.containerd.internal.v1.opt"]
                  path = "%1$s/opt"
                """.formatted(WORK);
    }

    private String log() throws IOException {
        Path log = WORK.resolve("containerd.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /** Unmounts what a killed run's containerd left mounted below WORK (deepest first), then deletes WORK. */
    private static void removeWork() throws IOException, InterruptedException {
        List<Path> mounts = mountsUnder(WORK);
        for (Path mount : mounts.reversed()) {
            new ProcessBuilder("umount", "-l", mount.toString())
                    .inheritIO()
                    .start()
                    .waitFor();
        }
        if (Files.exists(WORK)) {
            try (Stream<Path> files = Files.walk(WORK)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }

    private static List<Path> mountsUnder(Path dir) throws IOException {
        List<Path> mounts = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
            Path mountPoint = Path.of(line.split(" ")[4].replace("\\040", " "));
            if (mountPoint.startsWith(dir)) {
                mounts.add(mountPoint);
            }
        }
        return mounts;
    }

    private static Optional<Path> binDir() {
        List<Path> candidates = new ArrayList<>();
        String controlPlane = System.getenv("PODNUMA_CONTROLPLANE_BIN");
        if (controlPlane != null) {
            candidates.add(Path.of(controlPlane));
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty()) {
                candidates.add(Path.of(dir));
            }
        }
        return candidates.stream()
                .filter(d -> Files.isExecutable(d.resolve("containerd")) && Files.isExecutable(d.resolve("ctr")))
                .findFirst();
    }

    private static boolean isRoot() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream().anyMatch(l -> l.matches("Uid:\\s+0\\s.*"));
    }
}
