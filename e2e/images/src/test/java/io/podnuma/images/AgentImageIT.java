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
        List<String> cache = hasClassCache() ? AgentClassCache.runFlags("/opt/podnuma/node-agent.aot") : List.of();
        List<String> expected = BuiltImages.expectedEntrypoint(
                Path.of("../../node-agent/jvm.flags"), cache, "/opt/podnuma/node-agent.jar");
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
        // No public CAs: the agent trusts the cluster's CA alone.
        assertThat(layer.names()).noneMatch(n -> n.endsWith("/security/cacerts"));
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
    void theImagesJvmMapsTheAgentsAotCacheFromTheImagesOwnRoot() throws Exception {
        assumeThat(BuiltImages.isRoot()).as("chroot into the image needs root").isTrue();
        assumeThat(hasClassCache())
                .as("the build printed why the image has no AOT cache (training needs root and the local control"
                        + " plane's binaries)")
                .isTrue();
        assertThat(layer.get("opt/podnuma/node-agent.aot").mode()).isEqualTo(0644);
        // AOTMode=on fails the start when the cache cannot be used: another runtime, another jar (size or
        // modification time), other GC or header flags. The default (auto) would silently load the jar instead.
        List<String> command = new ArrayList<>(
                BuiltImages.strings(BuiltImages.config(outer).path("config").path("Entrypoint")));
        command.addAll(command.indexOf("-jar"), List.of("-XX:AOTMode=on", "-Xlog:aot=info"));
        command.add("--version");
        BuiltImages.Run run = BuiltImages.runReadOnly(root, "", command);
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("/opt/podnuma/node-agent.aot");
    }

    private static boolean hasClassCache() {
        return layer.names().contains("opt/podnuma/node-agent.aot");
    }

    @Test
    void theImagesJvmMapsTheRuntimesClassArchiveUnderTheAgentsJvmFlags() throws Exception {
        assumeThat(BuiltImages.isRoot()).as("chroot into the image needs root").isTrue();
        // jlink writes no archive of the JDK's classes; the build dumps one for jvm.flags (compact object headers open
        // classes_coh.jsa): what the JVM maps when it runs without the AOT cache (an image built where no cache could
        // be trained, or a pod that replaces the entrypoint). -Xshare:on fails the start when it cannot be mapped,
        // where the default would silently parse every JDK class instead.
        assertThat(layer.names()).contains("opt/podnuma/jre/lib/server/classes_coh.jsa");
        List<String> jvm = new ArrayList<>(BuiltImages.expectedEntrypoint(Path.of("../../node-agent/jvm.flags"), ""));
        jvm.subList(jvm.indexOf("-jar"), jvm.size()).clear();
        jvm.addAll(List.of("-Xshare:on", "-Xlog:cds", "-version"));
        BuiltImages.Run run = BuiltImages.runReadOnly(root, "", jvm);
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("Mapped static  region", "sharing");
    }
}
