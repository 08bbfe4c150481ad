package io.podnuma.images;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.podnuma.oci.TarEntries;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node-agent image as built: its entrypoint carries node-agent/jvm.flags, and its root filesystem alone (its own
 * jlinked runtime, jar and glibc, entered with chroot and mounted read-only) runs {@code node-agent topology}:
 * every module and library the agent needs is in the image, and the JVM needs no writable root.
 */
class AgentImageIT {
    private static TarEntries outer;
    private static TarEntries layer;

    @TempDir
    static Path root;

    @BeforeAll
    static void readImage() throws IOException {
        outer = TarEntries.read(BuiltImages.tar(PodnumaImage.NODE_AGENT));
        layer = BuiltImages.layer(outer);
        BuiltImages.extract(layer, root);
    }

    @Test
    void theImageIsNamedAndItsEntrypointRunsTheJarWithTheAgentsJvmFlags() throws IOException {
        assertThat(BuiltImages.imageName(outer))
                .isEqualTo(PodnumaImage.NODE_AGENT.name(BuiltImages.tag()).reference());
        JsonNode process = BuiltImages.config(outer).path("config");
        List<String> expected = new ArrayList<>();
        expected.add("/opt/podnuma/jre/bin/java");
        // Read here apart from JvmFlags: every line of the file that is not blank or a comment, in order.
        for (String line : Files.readAllLines(Path.of("../../node-agent/jvm.flags"))) {
            String flag = line.replaceAll("#.*", "").strip();
            if (!flag.isEmpty()) {
                expected.add(flag);
            }
        }
        expected.addAll(List.of("-jar", "/opt/podnuma/node-agent.jar"));
        assertThat(strings(process.path("Entrypoint"))).containsExactlyElementsOf(expected);
        assertThat(expected).contains("-XX:+UseSerialGC", "-Xmx64m");
        assertThat(strings(process.path("Cmd"))).containsExactly("run");
    }

    @Test
    void theRuntimesExecutablesAndTheLoaderAreExecutable() {
        assertThat(layer.get("opt/podnuma/jre/bin/java").mode()).isEqualTo(0755);
        assertThat(layer.get("opt/podnuma/jre/lib/jspawnhelper").mode()).isEqualTo(0755);
        assertThat(layer.get("lib64/ld-linux-x86-64.so.2").mode()).isEqualTo(0755);
        assertThat(layer.get("opt/podnuma/jre/lib/modules").mode()).isEqualTo(0644);
        assertThat(layer.get("opt/podnuma/node-agent.jar").mode()).isEqualTo(0644);
        assertThat(layer.get("tmp/").mode()).isEqualTo(01777);
        assertThat(layer.names()).anyMatch(n -> n.endsWith("/libc.so.6"));
        // Headless: no X11 or ALSA client libraries, and nothing in the runtime that would need them.
        assertThat(layer.names()).noneMatch(n -> n.contains("libX") || n.contains("libasound"));
        assertThat(layer.names()).noneMatch(n -> n.endsWith("/libawt_xawt.so") || n.endsWith("/libjsound.so"));
    }

    @Test
    void theJlinkedRuntimeHasOnlyTheModulesJdepsFound() throws Exception {
        String release = layer.get("opt/podnuma/jre/release").text();
        assertThat(release).contains("java.base", "java.net.http", "jdk.unsupported");
        assertThat(release).doesNotContain("jdk.compiler", "jdk.jshell", "jdk.jdeps");
    }

    @Test
    void theImagesOwnRootFilesystemRunsTheAgentReadOnly() throws Exception {
        assumeThat(isRoot()).as("chroot into the image needs root").isTrue();
        Files.createDirectories(root.resolve("sys"));
        Files.createDirectories(root.resolve("proc"));
        List<String> command = new ArrayList<>(List.of(
                "unshare",
                "--mount",
                "--propagation",
                "private",
                "sh",
                "-c",
                // A private mount namespace, gone with the process whatever happens: the image's root read-only
                // (as a pod's readOnlyRootFilesystem), /sys and /proc for the JVM.
                "mount --bind \"$0\" \"$0\" && mount --rbind -o ro /sys \"$0/sys\" && mount -t proc proc \"$0/proc\""
                        + " && mount -o remount,bind,ro \"$0\""
                        + " && if touch \"$0/tmp/probe\" 2>/dev/null; then echo 'root still writable'; exit 3; fi"
                        + " && exec chroot \"$0\" \"$@\"",
                root.toString()));
        command.addAll(strings(BuiltImages.config(outer).path("config").path("Entrypoint")));
        command.addAll(List.of("topology", "--output", "json"));
        Process agent = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(agent.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(agent.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(agent.exitValue()).as(out).isZero();
        assertThat(out).contains("\"cpus\"");
    }

    private static boolean isRoot() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream().anyMatch(l -> l.matches("Uid:\\s+0\\s.*"));
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
