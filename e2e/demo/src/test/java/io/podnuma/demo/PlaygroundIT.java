package io.podnuma.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The keep-running phase as a user meets it: in a JVM of its own on a real control plane, it prints a KUBECONFIG and a
 * PATH with which kubectl reaches the API server, waits, and on SIGINT (Ctrl-C) or SIGTERM closes the plane it
 * started: its processes gone, its directory deleted, exit 0.
 */
class PlaygroundIT {
    private static final Pattern KUBECONFIG = Pattern.compile("^\\s*export KUBECONFIG=(\\S+)$");
    private static final Pattern PATH = Pattern.compile("^\\s*export PATH=([^:]+):\\$PATH.*$");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"INT", "TERM"})
    void waitsWithAWorkingKubeconfigAndOnTheSignalClosesWhatItStarted(String signal) throws Exception {
        Process fixture = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        "-Dpodnuma.controlplane.dir=" + dir,
                        PlaygroundFixture.class.getName())
                .redirectErrorStream(true)
                .start();
        List<String> output = Collections.synchronizedList(new ArrayList<>());
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(fixture.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    output.add(line);
                }
            } catch (IOException ignored) {
                // the process ended
            }
        });
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
            // The instructions follow the ready line one by one: wait for their last, not the first.
            while (output.stream().noneMatch(l -> l.startsWith(Playground.HOW_TO_STOP))) {
                if (!fixture.isAlive()) {
                    reader.join(5_000);
                    Assumptions.assumeFalse(
                            output.stream().anyMatch(l -> l.startsWith(PlaygroundFixture.UNAVAILABLE)),
                            () -> String.join("\n", output));
                    throw new AssertionError("the fixture ended before it was ready:\n" + String.join("\n", output));
                }
                assertThat(System.nanoTime())
                        .as("ready within 180 s:\n%s", output)
                        .isLessThan(deadline);
                Thread.sleep(100);
            }
            Path kubeconfig = Path.of(group(output, KUBECONFIG));
            Path binDir = Path.of(group(output, PATH));
            assertThat(kubeconfig).isRegularFile().startsWith(dir);
            Process kubectl = new ProcessBuilder(
                            binDir.resolve("kubectl").toString(), "--kubeconfig", kubeconfig.toString(), "get", "ns")
                    .redirectErrorStream(true)
                    .start();
            String listed = new String(kubectl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(kubectl.waitFor()).as(listed).isZero();
            assertThat(listed).contains("kube-system");

            List<ProcessHandle> started = fixture.descendants().toList();
            assertThat(started).as("etcd and kube-apiserver").hasSizeGreaterThanOrEqualTo(2);
            // Still waiting: nothing ends it but the signal.
            assertThat(fixture.waitFor(2, TimeUnit.SECONDS)).isFalse();

            Process kill = new ProcessBuilder("kill", "-s", signal, Long.toString(fixture.pid())).start();
            assertThat(kill.waitFor()).isZero();
            assertThat(fixture.waitFor(90, TimeUnit.SECONDS))
                    .as("ended after SIG%s", signal)
                    .isTrue();
            reader.join(5_000);
            assertThat(fixture.exitValue()).as(String.join("\n", output)).isZero();
            assertThat(output)
                    .contains("SIG" + signal + ": tearing the playground down")
                    .contains(PlaygroundFixture.CLOSED);
            assertThat(started).noneMatch(ProcessHandle::isAlive);
            assertThat(kubeconfig).doesNotExist();
            try (var left = Files.list(dir)) {
                assertThat(left.map(p -> p.getFileName().toString()))
                        .noneMatch(n -> n.startsWith("controlplane-work-") || n.startsWith("work-"));
            }
        } finally {
            if (fixture.isAlive()) {
                // SIGTERM first: the plane's own shutdown hook stops etcd and the API server.
                fixture.destroy();
                fixture.waitFor(60, TimeUnit.SECONDS);
                fixture.destroyForcibly();
            }
        }
    }

    private static String group(List<String> output, Pattern pattern) {
        synchronized (output) {
            for (String line : output) {
                Matcher m = pattern.matcher(line);
                if (m.matches()) {
                    return m.group(1);
                }
            }
        }
        throw new AssertionError("no line matching " + pattern + " in:\n" + String.join("\n", output));
    }
}
