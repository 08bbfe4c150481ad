package io.podnuma.images;

import io.podnuma.controlplane.ControlPlaneUnavailableException;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.oci.LayerPath;
import io.podnuma.oci.OciLayoutWriter;
import io.podnuma.testkit.agent.AgentRuntime;
import io.podnuma.testkit.agent.ClassCacheTraining;
import io.podnuma.testkit.agent.JvmFlags;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The node agent image's AOT cache (JDK 25, JEP 483/514/515): the agent's classes loaded and linked, with their method
 * profiles, in a file the image's JVM maps at start instead of reading, parsing and linking the jar's classes into its
 * own memory. Trained at image build by the image's own jlinked runtime on the workload of a node
 * ({@link ClassCacheTraining}: a local control plane, kwok, 110 pods of 3 containers, full sync, the NRI plugin's
 * paths, PodResources calls).
 *
 * <p>A cache is only used by the runtime that wrote it and for the same class path jar: same size and modification
 * time (its path may differ). So the jar is trained as it will lie in the image: a copy with the layer's modification
 * time ({@link OciLayoutWriter#EPOCH}). Before the cache goes into the image, the runtime maps it once with
 * {@code -XX:AOTMode=on} (which fails the start when the cache cannot be used).
 */
final class AgentClassCache {

    /** Where the cache lies in the image. */
    static final LayerPath IN_IMAGE = BuildJavaImage.HOME.resolve("node-agent.aot");

    /** {@code -Dpodnuma.images.agentCache=off} builds the image without the cache (a faster build, a baseline). */
    static final String PROPERTY = "podnuma.images.agentCache";

    /** The policy name of the training node. */
    static final String TRAINING_POLICY = "image-training";

    private AgentClassCache() {}

    /** The JVM flags that map the cache at {@code file} in place ({@link io.podnuma.testkit.agent.JvmFlags#mappingAotCache}). */
    static List<String> runFlags(String file) {
        return JvmFlags.mappingAotCache(file);
    }

    /** What the training gave: the cache, or why this machine cannot train one (printed by the build). */
    sealed interface Outcome {
        record Trained(Path file, Duration took) implements Outcome {}

        record Skipped(String reason) implements Outcome {}
    }

    /**
     * Trains the cache for {@code jar} with {@code runtime} and {@code flags} under {@code workDir}.
     *
     * @return the cache file, or why this machine cannot train one (not root, no control-plane binaries)
     */
    static Outcome train(Path runtime, Path jar, List<String> flags, Path workDir) throws Exception {
        String setting = System.getProperty(PROPERTY, "on");
        if (setting.equals("off")) {
            return new Outcome.Skipped("turned off by -D" + PROPERTY + "=off");
        }
        if (!setting.equals("on")) {
            throw new IllegalArgumentException("-D" + PROPERTY + "=" + setting + ": allowed on (the default) or off");
        }
        if (!isRoot()) {
            return new Outcome.Skipped("training needs root (the training node's cgroups are real)");
        }
        Path binaries;
        try {
            binaries = LocalControlPlane.binaries();
        } catch (ControlPlaneUnavailableException e) {
            return new Outcome.Skipped("no local control plane to train on: " + e.getMessage());
        }
        BuildJavaImage.deleteTree(workDir);
        Files.createDirectories(workDir);
        Path staged = workDir.resolve("node-agent.jar");
        Files.copy(jar, staged, StandardCopyOption.REPLACE_EXISTING);
        Files.setLastModifiedTime(staged, FileTime.fromMillis(TimeUnit.SECONDS.toMillis(OciLayoutWriter.EPOCH)));
        Path cache = workDir.resolve("node-agent.aot");
        AgentRuntime agent = new AgentRuntime(runtime.resolve("bin/java"), staged);
        List<String> training = new ArrayList<>(flags);
        training.add("-XX:AOTCacheOutput=" + cache);
        try (LocalControlPlane plane = LocalControlPlane.start(binaries, workDir.resolve("plane"))) {
            ClassCacheTraining.Result result = ClassCacheTraining.run(
                    plane, agent, training, ClassCacheTraining.Workload.NODE, TRAINING_POLICY, workDir);
            if (!Files.isRegularFile(cache)) {
                throw new IllegalStateException("the training run (agent exit " + result.exitCode()
                        + ") wrote no AOT cache at " + cache + "; the agent's logs are under " + workDir);
            }
            result.nriLeftOut()
                    .ifPresent(why -> System.out.println(
                            "podnuma images: the agent's AOT cache is trained without the NRI path (" + why + ")"));
            checkMaps(agent, flags, cache);
            return new Outcome.Trained(cache, result.took());
        }
    }

    /** The runtime maps the cache for the staged jar, or the build fails with what the JVM said. */
    private static void checkMaps(AgentRuntime agent, List<String> flags, Path cache) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(agent.java().toString());
        cmd.addAll(flags);
        cmd.addAll(runFlags(cache.toString()));
        cmd.addAll(List.of("-XX:AOTMode=on", "-jar", agent.jar().toString(), "--version"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (p.waitFor() != 0) {
                throw new IllegalStateException(
                        "the trained AOT cache does not map (" + String.join(" ", cmd) + "):\n" + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while checking the AOT cache", e);
        }
    }

    private static boolean isRoot() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream().anyMatch(l -> l.matches("Uid:\\s+0\\s.*"));
    }
}
