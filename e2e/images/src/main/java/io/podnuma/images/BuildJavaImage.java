package io.podnuma.images;

import io.podnuma.oci.FileMode;
import io.podnuma.oci.ImageName;
import io.podnuma.oci.ImageSpec;
import io.podnuma.oci.ImageUser;
import io.podnuma.oci.LayerEntry;
import io.podnuma.oci.LayerPath;
import io.podnuma.oci.OciArchive;
import io.podnuma.oci.OciLayoutWriter;
import io.podnuma.testkit.agent.JvmFlags;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Builds the image of one of podnuma's Java programs ({@link Component}): a jlinked runtime of the JDK this build
 * runs on with only the modules {@code jdeps} finds in its runnable jar, the jar, the host glibc files the runtime
 * loads, and an entrypoint with the JVM flags of its {@code jvm.flags}. The default command is {@code run}; a pod's
 * {@code args} replace it (e.g. {@code topology}).
 *
 * <p>What neither needs: a writable root filesystem (the JVM writes nothing with {@code -XX:-UsePerfData};
 * {@code /tmp} is a scratch directory a pod may back with an emptyDir), a shell, or a package manager.
 *
 * <p>Arguments: the component ({@code node-agent} or {@code operator}), its runnable jar, its jvm.flags file, the
 * output directory, the image tag. Writes {@code <component>-runtime/} (the jlinked runtime, also run directly by this
 * module's tests) and the image tar.
 */
public final class BuildJavaImage {
    public static final LayerPath HOME = LayerPath.of("/opt/podnuma");
    public static final LayerPath JAVA_HOME = HOME.resolve("jre");

    /** The programs with an image, and what differs between them. */
    public enum Component {
        /**
         * Runs as root: the agent writes cgroup files that root owns ({@code cpuset.cpus}, {@code cpuset.mems} under
         * {@code /sys/fs/cgroup}) and reads the kubelet's state and PodResources socket, which are root's.
         */
        NODE_AGENT("node-agent", PodnumaImage.NODE_AGENT, ImageUser.ROOT, List.of(), true, true),
        /**
         * Runs as an unprivileged user: it only talks to the API server. Two malloc arenas: glibc's default of eight per
         * core for a JVM's threads cost the operator tens of MiB of RSS (the scale bench).
         */
        OPERATOR("operator", PodnumaImage.OPERATOR, ImageUser.NONROOT, List.of("MALLOC_ARENA_MAX=2"), false, false);

        private final String id;
        private final PodnumaImage image;
        private final ImageUser user;
        private final List<String> env;
        /** Whether its image carries an AOT cache ({@link AgentClassCache}): the agent's, whose footprint each node pays. */
        private final boolean classCache;
        /**
         * Whether its jar goes into the image without the annotations only the CRD generator reads
         * ({@link SchemaAnnotations}): the agent's, whose start each node waits for.
         */
        private final boolean withoutSchemaAnnotations;

        Component(
                String id,
                PodnumaImage image,
                ImageUser user,
                List<String> env,
                boolean classCache,
                boolean withoutSchemaAnnotations) {
            this.id = id;
            this.image = image;
            this.user = user;
            this.env = env;
            this.classCache = classCache;
            this.withoutSchemaAnnotations = withoutSchemaAnnotations;
        }

        /** Where the jar is in the image: {@code /opt/podnuma/<component>.jar}. */
        public LayerPath jar() {
            return HOME.resolve(id + ".jar");
        }

        /** The program's Maven {@code group:artifact}: the SBOM's application among the jar's artifacts. */
        String mavenCoordinates() {
            return "io.podnuma:podnuma-" + id;
        }

        public ImageUser user() {
            return user;
        }

        static Component of(String id) {
            for (Component c : values()) {
                if (c.id.equals(id)) {
                    return c;
                }
            }
            throw new IllegalArgumentException("component '" + id + "': allowed node-agent or operator");
        }
    }

    /** The native libraries of java.desktop that only a display or a sound card loads. */
    static final List<String> HEADLESS_EXCLUDED =
            List.of("**/libawt_xawt.so", "**/libjawt.so", "**/libsplashscreen.so", "**/libjsound.so");

    /**
     * The JDK's store of public certificate authorities. Both programs talk to one TLS server, the cluster's API
     * server, whose certificate the cluster's own CA signs (the service account's {@code ca.crt}, or the kubeconfig's);
     * fabric8 adds that CA to the JDK's default store, and without a store it trusts that CA alone. So the images trust
     * no public CA, and a start no longer reads the store's 140-odd certificates (50–100 ms of the agent's CPU to get
     * ready, issue 13).
     */
    static final List<String> PUBLIC_CAS_EXCLUDED = List.of("**/security/cacerts");

    private BuildJavaImage() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            throw new IllegalArgumentException(
                    "usage: BuildJavaImage <node-agent|operator> <runnable jar> <jvm.flags> <output dir> <tag>");
        }
        Component component = Component.of(args[0]);
        Path jar = Path.of(args[1]);
        List<String> flags = JvmFlags.read(Path.of(args[2]));
        Path out = Path.of(args[3]);
        ImageName name = component.image.name(args[4]);
        Files.createDirectories(out);
        if (component.withoutSchemaAnnotations) {
            SchemaAnnotations.Stripped stripped =
                    SchemaAnnotations.strip(jar, out.resolve(component.id + "-image.jar"));
            System.out.printf(
                    "podnuma images: %s without the CRD generator's annotations: %,d annotations off %,d classes%n",
                    stripped.jar(), stripped.annotations(), stripped.classes());
            jar = stripped.jar();
        }

        long start = System.nanoTime();
        List<String> modules = modulesOf(jar);
        Path runtime = jlink(modules, out.resolve(component.id + "-runtime"));
        Path classArchive = dumpClassArchive(runtime, flags);
        AgentClassCache.Outcome cache = component.classCache
                ? AgentClassCache.train(runtime, jar, flags, out.resolve(component.id + "-cache-training"))
                : new AgentClassCache.Outcome.Skipped("the " + component.id + " image has none");
        List<LayerEntry> entries = new ArrayList<>(runtimeEntries(runtime));
        for (Path library : HostLibraries.of(HostLibraries.elfFiles(runtime), runtime)) {
            // The loader is the one file of these that is executed (it is every ELF's interpreter), not only mapped.
            FileMode mode =
                    library.getFileName().toString().startsWith("ld-linux") ? FileMode.EXECUTABLE : FileMode.REGULAR;
            entries.add(new LayerEntry.HostFile(LayerPath.of(library.toString()), library, mode));
        }
        entries.add(new LayerEntry.HostFile(component.jar(), jar, FileMode.REGULAR));
        if (cache instanceof AgentClassCache.Outcome.Trained trained) {
            entries.add(new LayerEntry.HostFile(AgentClassCache.IN_IMAGE, trained.file(), FileMode.REGULAR));
        }
        entries.add(new LayerEntry.Directory(LayerPath.of("/tmp"), FileMode.STICKY_SCRATCH));
        // Who root and the unprivileged user are, and how names resolve, for the JVM's user.name and the API server's
        // host name.
        entries.add(new LayerEntry.Text(
                LayerPath.of("/etc/passwd"),
                "root:x:0:0:root:/:/nonexistent\nnonroot:x:65532:65532:nonroot:/tmp:/nonexistent\n",
                FileMode.REGULAR));
        entries.add(new LayerEntry.Text(LayerPath.of("/etc/group"), "root:x:0:\nnonroot:x:65532:\n", FileMode.REGULAR));
        entries.add(new LayerEntry.Text(LayerPath.of("/etc/nsswitch.conf"), "hosts: files dns\n", FileMode.REGULAR));

        // Last, from everything above: what the image carries, beside the tar and inside the image.
        String sbom = ImageSbom.of(
                new ImageSbom.Subject(
                        name,
                        component.mavenCoordinates(),
                        runtime,
                        JAVA_HOME,
                        Path.of(System.getProperty("java.home")),
                        ImageSbom.Dpkg.ofHost()),
                entries);
        Files.writeString(component.image.sbomIn(out), sbom);
        entries.add(new LayerEntry.Text(ImageSbom.IN_IMAGE, sbom, FileMode.REGULAR));

        List<String> entrypoint = new ArrayList<>();
        entrypoint.add(JAVA_HOME.resolve("bin/java").absolute());
        entrypoint.addAll(flags);
        if (cache instanceof AgentClassCache.Outcome.Trained) {
            entrypoint.addAll(AgentClassCache.runFlags(AgentClassCache.IN_IMAGE.absolute()));
        }
        entrypoint.add("-jar");
        entrypoint.add(component.jar().absolute());
        ImageSpec spec = new ImageSpec(
                name,
                entrypoint,
                List.of("run"),
                Stream.concat(
                                Stream.of(
                                        "PATH=" + JAVA_HOME.resolve("bin").absolute(),
                                        "JAVA_HOME=" + JAVA_HOME.absolute()),
                                component.env.stream())
                        .toList(),
                entries,
                component.user());
        OciArchive archive = new OciLayoutWriter().write(spec, component.image.tarIn(out));
        System.out.printf(
                "podnuma images: %s → %s (%,d bytes; modules %s; class archive %s, %,d bytes; %s; SBOM %s; %d s)%n",
                archive.name(),
                archive.file(),
                archive.size(),
                String.join(",", modules),
                classArchive.getFileName(),
                Files.size(classArchive),
                describe(cache),
                component.image.sbomIn(out).getFileName(),
                (System.nanoTime() - start) / 1_000_000_000L);
    }

    private static String describe(AgentClassCache.Outcome cache) throws IOException {
        return switch (cache) {
            case AgentClassCache.Outcome.Trained t ->
                String.format(
                        "AOT cache %s, %,d bytes, trained in %d s",
                        AgentClassCache.IN_IMAGE.absolute(),
                        Files.size(t.file()),
                        t.took().toSeconds());
            case AgentClassCache.Outcome.Skipped s -> "no AOT cache: " + s.reason();
        };
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
                        "--exclude-files="
                                + String.join(
                                        ",",
                                        Stream.concat(HEADLESS_EXCLUDED.stream(), PUBLIC_CAS_EXCLUDED.stream())
                                                .toList()),
                        "--output",
                        output.toString()));
        return output;
    }

    /**
     * The runtime's own archive of the JDK's classes, for the image's JVM flags. jlink writes none, so without it the
     * image's JVM parsed every JDK class it loads into its own memory where the JDK's JVM maps them from a file
     * (shared, and ready faster); and which archive file the JVM opens depends on its flags (compact object headers
     * look for {@code classes_coh.jsa}), so it is dumped with the flags the entrypoint passes.
     */
    static Path dumpClassArchive(Path runtime, List<String> flags) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(runtime.resolve("bin/java").toString());
        cmd.addAll(flags);
        cmd.add("-Xshare:dump");
        cmd.add("-Xlog:cds=off");
        cmd.add("-Xlog:cds+map=off");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        try {
            if (p.waitFor() != 0) {
                throw new IllegalStateException(
                        "the runtime's class archive could not be dumped (" + String.join(" ", cmd) + "):\n" + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while dumping the class archive", e);
        }
        try (Stream<Path> files = Files.list(runtime.resolve("lib/server"))) {
            return files.filter(f -> f.getFileName().toString().endsWith(".jsa"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException(
                            "-Xshare:dump wrote no archive under " + runtime.resolve("lib/server") + ":\n" + output));
        }
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

    static void deleteTree(Path dir) throws IOException {
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
