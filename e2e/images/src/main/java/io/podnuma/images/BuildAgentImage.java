package io.podnuma.images;

import io.podnuma.oci.FileMode;
import io.podnuma.oci.ImageName;
import io.podnuma.oci.ImageSpec;
import io.podnuma.oci.LayerEntry;
import io.podnuma.oci.LayerPath;
import io.podnuma.oci.OciArchive;
import io.podnuma.oci.OciLayoutWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Builds {@code podnuma.local/node-agent:<version>}: a jlinked runtime of the JDK this build runs on with only the
 * modules {@code jdeps} finds in the agent's runnable jar, the jar, the host glibc files the runtime loads, and an
 * entrypoint with the JVM flags of {@code node-agent/jvm.flags}. The default command is {@code run}; a pod's
 * {@code args} replace it (e.g. {@code topology}).
 *
 * <p>It runs as root: the agent writes cgroup files that root owns ({@code cpuset.cpus}, {@code cpuset.mems} under
 * {@code /sys/fs/cgroup}) and reads the kubelet's state and PodResources socket, which are root's. What it does not
 * need: a writable root filesystem (the JVM writes nothing with {@code -XX:-UsePerfData}; {@code /tmp} is a
 * scratch directory a pod may back with an emptyDir), a shell, or a package manager.
 *
 * <p>Arguments: the agent's runnable jar, the jvm.flags file, the output directory, the image tag. Writes
 * {@code node-agent-runtime/} (the jlinked runtime, also run directly by this module's tests) and
 * {@code node-agent-image.tar}.
 */
public final class BuildAgentImage {
    public static final LayerPath HOME = LayerPath.of("/opt/podnuma");
    public static final LayerPath JAVA_HOME = HOME.resolve("jre");
    public static final LayerPath JAR = HOME.resolve("node-agent.jar");

    /** The native libraries of java.desktop that only a display or a sound card loads. */
    static final List<String> HEADLESS_EXCLUDED =
            List.of("**/libawt_xawt.so", "**/libjawt.so", "**/libsplashscreen.so", "**/libjsound.so");

    private BuildAgentImage() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            throw new IllegalArgumentException("usage: BuildAgentImage <agent jar> <jvm.flags> <output dir> <tag>");
        }
        Path jar = Path.of(args[0]);
        JvmFlags flags = JvmFlags.read(Path.of(args[1]));
        Path out = Path.of(args[2]);
        ImageName name = PodnumaImage.NODE_AGENT.name(args[3]);
        Files.createDirectories(out);

        long start = System.nanoTime();
        List<String> modules = modulesOf(jar);
        Path runtime = jlink(modules, out.resolve("node-agent-runtime"));
        List<LayerEntry> entries = new ArrayList<>(runtimeEntries(runtime));
        for (Path library : HostLibraries.of(HostLibraries.elfFiles(runtime), runtime)) {
            // The loader is the one file of these that is executed (it is every ELF's interpreter), not only mapped.
            FileMode mode =
                    library.getFileName().toString().startsWith("ld-linux") ? FileMode.EXECUTABLE : FileMode.REGULAR;
            entries.add(new LayerEntry.HostFile(LayerPath.of(library.toString()), library, mode));
        }
        entries.add(new LayerEntry.HostFile(JAR, jar, FileMode.REGULAR));
        entries.add(new LayerEntry.Directory(LayerPath.of("/tmp"), FileMode.STICKY_SCRATCH));
        // Who root is and how names resolve, for the JVM's user.name and the API server's host name.
        entries.add(
                new LayerEntry.Text(LayerPath.of("/etc/passwd"), "root:x:0:0:root:/:/nonexistent\n", FileMode.REGULAR));
        entries.add(new LayerEntry.Text(LayerPath.of("/etc/group"), "root:x:0:\n", FileMode.REGULAR));
        entries.add(new LayerEntry.Text(LayerPath.of("/etc/nsswitch.conf"), "hosts: files dns\n", FileMode.REGULAR));

        List<String> entrypoint = new ArrayList<>();
        entrypoint.add(JAVA_HOME.resolve("bin/java").absolute());
        entrypoint.addAll(flags.flags());
        entrypoint.add("-jar");
        entrypoint.add(JAR.absolute());
        ImageSpec spec = new ImageSpec(
                name,
                entrypoint,
                List.of("run"),
                List.of("PATH=" + JAVA_HOME.resolve("bin").absolute(), "JAVA_HOME=" + JAVA_HOME.absolute()),
                entries);
        OciArchive archive = new OciLayoutWriter().write(spec, PodnumaImage.NODE_AGENT.tarIn(out));
        System.out.printf(
                "podnuma images: %s → %s (%,d bytes; modules %s; %d s)%n",
                archive.name(),
                archive.file(),
                archive.size(),
                String.join(",", modules),
                (System.nanoTime() - start) / 1_000_000_000L);
    }

    static List<String> modulesOf(Path jar) {
        String out = JdkTools.run(
                "jdeps",
                List.of(
                        "--print-module-deps",
                        "--ignore-missing-deps",
                        "--multi-release",
                        Integer.toString(Runtime.version().feature()),
                        jar.toString()));
        return List.of(out.strip().split(","));
    }

    static Path jlink(List<String> modules, Path output) throws IOException {
        deleteTree(output);
        JdkTools.run(
                "jlink",
                List.of(
                        "--add-modules",
                        String.join(",", modules),
                        "--strip-debug",
                        "--no-man-pages",
                        "--no-header-files",
                        // java.desktop is in for java.beans; its display and sound back ends need X11 and ALSA,
                        // which a headless agent never loads and a node image should not carry.
                        "--exclude-files=" + String.join(",", HEADLESS_EXCLUDED),
                        "--output",
                        output.toString()));
        return output;
    }

    /** The runtime under {@link #JAVA_HOME}, with the modes jlink gave (executables stay executable), links kept. */
    private static List<LayerEntry> runtimeEntries(Path runtime) throws IOException {
        List<LayerEntry> entries = new ArrayList<>();
        try (Stream<Path> files = Files.walk(runtime)) {
            for (Path file : files.sorted().toList()) {
                if (file.equals(runtime)) {
                    continue;
                }
                LayerPath path = JAVA_HOME.resolve(runtime.relativize(file).toString());
                if (Files.isSymbolicLink(file)) {
                    entries.add(new LayerEntry.Symlink(
                            path, Files.readSymbolicLink(file).toString()));
                } else if (Files.isDirectory(file)) {
                    entries.add(new LayerEntry.Directory(path, FileMode.EXECUTABLE));
                } else {
                    FileMode mode = Files.isExecutable(file) ? FileMode.EXECUTABLE : FileMode.REGULAR;
                    entries.add(new LayerEntry.HostFile(path, file, mode));
                }
            }
        }
        return entries;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
