package io.podnuma.images;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.podnuma.oci.Digest;
import io.podnuma.oci.TarEntries;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** The images this module's package phase built (target/images), and a way into their single layer. */
final class BuiltImages {
    private static final ObjectMapper JSON = new ObjectMapper();

    private BuiltImages() {}

    static Path dir() {
        String dir = System.getProperty("podnuma.images.dir");
        assertThat(dir)
                .as("system property podnuma.images.dir (set by the failsafe configuration)")
                .isNotNull();
        return Path.of(dir);
    }

    static String tag() {
        return System.getProperty("podnuma.images.tag");
    }

    static Path file(String name) {
        Path file = dir().resolve(name);
        assertThat(file).as("built by `package`").exists();
        return file;
    }

    static Path tar(PodnumaImage image) {
        Path file = image.tarIn(dir());
        assertThat(file).as("built by `package`").exists();
        return file;
    }

    /** The image's config JSON, found from index.json through the manifest. */
    static JsonNode config(TarEntries outer) throws IOException {
        JsonNode manifest = JSON.readTree(blob(
                outer,
                JSON.readTree(outer.get("index.json").content())
                        .path("manifests")
                        .get(0)));
        return JSON.readTree(blob(outer, manifest.path("config")));
    }

    static TarEntries layer(TarEntries outer) throws IOException {
        JsonNode manifest = JSON.readTree(blob(
                outer,
                JSON.readTree(outer.get("index.json").content())
                        .path("manifests")
                        .get(0)));
        return TarEntries.read(blob(outer, manifest.path("layers").get(0)));
    }

    static String imageName(TarEntries outer) throws IOException {
        return JSON.readTree(outer.get("index.json").content())
                .path("manifests")
                .get(0)
                .path("annotations")
                .path("io.containerd.image.name")
                .asText();
    }

    /** What a command printed (stdout and stderr together) and its exit code. */
    record Run(int exitCode, String output) {}

    /**
     * Runs {@code command} inside the extracted image {@code root}, as the image's {@code user}: a private mount
     * namespace, gone with the process whatever happens, the root mounted read-only (as a pod's
     * readOnlyRootFilesystem), /sys and /proc for the JVM. Needs root on the host (chroot, mounts).
     */
    static Run runReadOnly(Path root, String user, List<String> command) throws IOException, InterruptedException {
        Files.createDirectories(root.resolve("sys"));
        Files.createDirectories(root.resolve("proc"));
        List<String> argv = new ArrayList<>(List.of(
                "unshare",
                "--mount",
                "--propagation",
                "private",
                "sh",
                "-c",
                "mount --bind \"$0\" \"$0\" && mount --rbind -o ro /sys \"$0/sys\" && mount -t proc proc \"$0/proc\""
                        + " && mount -o remount,bind,ro \"$0\""
                        + " && if touch \"$0/tmp/probe\" 2>/dev/null; then echo 'root still writable'; exit 3; fi"
                        // sh -c: $0 is the root, $1 the user, the command follows.
                        + " && u=\"$1\" && shift && exec chroot --userspec=\"$u\" \"$0\" \"$@\"",
                root.toString(),
                user.isEmpty() ? "0:0" : user));
        argv.addAll(command);
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("still running after 60 s: " + command + "\n" + out);
        }
        return new Run(p.exitValue(), out);
    }

    /**
     * The entrypoint an image of a Java component must have: its runtime's java, every flag of its flags file (read
     * here apart from the build's JvmFlags: each line that is not blank or a comment, in order), {@code -jar} and
     * its jar.
     */
    static List<String> expectedEntrypoint(Path flagsFile, String jar) throws IOException {
        return expectedEntrypoint(flagsFile, List.of(), jar);
    }

    /** The entrypoint: java, the flags file's flags, {@code more} flags, {@code -jar jar}. */
    static List<String> expectedEntrypoint(Path flagsFile, List<String> more, String jar) throws IOException {
        List<String> expected = new ArrayList<>();
        expected.add("/opt/podnuma/jre/bin/java");
        for (String line : Files.readAllLines(flagsFile)) {
            String flag = line.replaceAll("#.*", "").strip();
            if (!flag.isEmpty()) {
                expected.add(flag);
            }
        }
        expected.addAll(more);
        expected.addAll(List.of("-jar", jar));
        return expected;
    }

    static boolean isRoot() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream().anyMatch(l -> l.matches("Uid:\\s+0\\s.*"));
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** Writes the layer out as a root filesystem: directories, files with their modes, symbolic links. */
    static void extract(TarEntries layer, Path root) throws IOException {
        // An image's root is 0755 for every user (JUnit makes its temporary directories 0700).
        Files.setPosixFilePermissions(root, permissions(0755));
        for (TarEntries.Entry e : layer.byName().values()) {
            Path target = root.resolve(e.name());
            switch (e.type()) {
                case '5' -> Files.createDirectories(target);
                case '2' -> {
                    Files.createDirectories(target.getParent());
                    Files.createSymbolicLink(target, Path.of(e.linkTarget()));
                }
                case '0' -> {
                    Files.createDirectories(target.getParent());
                    Files.write(target, e.content());
                    Files.setPosixFilePermissions(target, permissions(e.mode()));
                    // as containerd unpacks it: a class cache is only used for a jar of the time it was trained for
                    Files.setLastModifiedTime(target, FileTime.fromMillis(e.mtime() * 1000));
                }
                default -> throw new AssertionError("unexpected entry type " + e.type() + " of " + e.name());
            }
        }
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {
            PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ
        };
        for (int bit = 0; bit < order.length; bit++) {
            if ((mode & (1 << bit)) != 0) {
                set.add(order[bit]);
            }
        }
        return set;
    }

    private static byte[] blob(TarEntries outer, JsonNode descriptor) {
        return outer.get("blobs/sha256/"
                        + Digest.parse(descriptor.path("digest").asText()).hex())
                .content();
    }
}
