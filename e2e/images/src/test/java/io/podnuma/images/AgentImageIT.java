package io.podnuma.images;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.podnuma.oci.TarEntries;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
        List<String> expected =
                BuiltImages.expectedEntrypoint(Path.of("../../node-agent/jvm.flags"), "/opt/podnuma/node-agent.jar");
        assertThat(BuiltImages.strings(process.path("Entrypoint"))).containsExactlyElementsOf(expected);
        assertThat(expected).contains("-XX:+UseSerialGC", "-Xmx64m");
        assertThat(BuiltImages.strings(process.path("Cmd"))).containsExactly("run");
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
        assumeThat(BuiltImages.isRoot()).as("chroot into the image needs root").isTrue();
        List<String> command = new ArrayList<>(
                BuiltImages.strings(BuiltImages.config(outer).path("config").path("Entrypoint")));
        command.addAll(List.of("topology", "--output", "json"));
        BuiltImages.Run run = BuiltImages.runReadOnly(root, "", command);
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("\"cpus\"");
    }

    @Test
    void theImagesJvmMapsTheRuntimesClassArchiveUnderTheEntrypointsFlags() throws Exception {
        assumeThat(BuiltImages.isRoot()).as("chroot into the image needs root").isTrue();
        // jlink writes no archive of the JDK's classes; the build dumps one for the entrypoint's flags (compact object
        // headers open classes_coh.jsa). -Xshare:on fails the start when it cannot be mapped, where the default would
        // silently parse every JDK class instead.
        assertThat(layer.names()).contains("opt/podnuma/jre/lib/server/classes_coh.jsa");
        List<String> command = new ArrayList<>(
                BuiltImages.strings(BuiltImages.config(outer).path("config").path("Entrypoint")));
        int jar = command.indexOf("-jar");
        List<String> jvm = new ArrayList<>(command.subList(0, jar));
        jvm.addAll(List.of("-Xshare:on", "-Xlog:cds", "-version"));
        BuiltImages.Run run = BuiltImages.runReadOnly(root, "", jvm);
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("Mapped static  region", "sharing");
    }
}
