package io.podnuma.images;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.podnuma.oci.PauseImage;
import io.podnuma.oci.TarEntries;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The pause and workload images as built: their tars, and their static binaries run directly on this host. */
class StaticImagesIT {
    private Process process;

    @AfterEach
    void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly().waitFor();
        }
    }

    @Test
    void eachTarNamesItsImageAndHoldsOnlyItsStaticExecutable() throws IOException {
        for (var imageAndProgram : Map.of(PodnumaImage.PAUSE, "pause", PodnumaImage.WORKLOAD, "workload")
                .entrySet()) {
            PodnumaImage image = imageAndProgram.getKey();
            String program = imageAndProgram.getValue();
            TarEntries outer = TarEntries.read(BuiltImages.tar(image));
            // Pause carries the one sandbox image name the real node pins; the workload the build's tag.
            String tag = image == PodnumaImage.PAUSE ? PauseImage.VERSION : BuiltImages.tag();
            assertThat(BuiltImages.imageName(outer)).isEqualTo("podnuma.local/" + program + ":" + tag);
            assertThat(BuiltImages.config(outer)
                            .path("config")
                            .path("Entrypoint")
                            .toString())
                    .isEqualTo("[\"/" + program + "\"]");
            TarEntries layer = BuiltImages.layer(outer);
            assertThat(layer.names()).containsExactly(program);
            TarEntries.Entry binary = layer.get(program);
            assertThat(binary.mode()).isEqualTo(0755);
            assertThat(binary.content()).isEqualTo(Files.readAllBytes(BuiltImages.file(program)));
            // Static: an ELF without a PT_INTERP program header, so no loader or library is needed in the image.
            assertThat(new String(binary.content(), StandardCharsets.ISO_8859_1))
                    .doesNotContain("/lib64/ld-linux");
        }
    }

    @Test
    void pauseWaitsUntilSigtermAndExitsZero() throws Exception {
        process = new ProcessBuilder(BuiltImages.file("pause").toString()).start();
        assertThat(process.waitFor(500, TimeUnit.MILLISECONDS))
                .as("still pausing")
                .isFalse();
        process.destroy(); // SIGTERM
        assertThat(process.waitFor(5, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isZero();
    }

    @Test
    void pauseExitsZeroOnSigintToo() throws Exception {
        process = new ProcessBuilder(BuiltImages.file("pause").toString()).start();
        assertThat(process.waitFor(300, TimeUnit.MILLISECONDS)).isFalse();
        signal("INT", process);
        assertThat(process.waitFor(5, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isZero();
    }

    @Test
    void workloadReportsItsAffinityAtStartOnSigusr1AndWhenItChanges() throws Exception {
        String own = ownAffinity();
        process = new ProcessBuilder(BuiltImages.file("workload").toString(), "1").start();
        BlockingQueue<String> lines = lines(process);

        assertThat(lines.poll(5, TimeUnit.SECONDS)).isEqualTo(own);
        signal("USR1", process);
        assertThat(lines.poll(5, TimeUnit.SECONDS)).as("a report on request").isEqualTo(own);

        int cpus = Runtime.getRuntime().availableProcessors();
        assumeThat(cpus).as("changing the affinity needs two CPUs").isGreaterThan(1);
        String last = Integer.toString(cpus - 1);
        assertThat(new ProcessBuilder("taskset", "-p", "-c", last, Long.toString(process.pid()))
                        .start()
                        .waitFor())
                .isZero();
        assertThat(lines.poll(5, TimeUnit.SECONDS)).startsWith("affinity cpus=" + last + " mems=");

        process.destroy();
        assertThat(process.waitFor(5, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isZero();
    }

    @Test
    void workloadReportOncePrintsAndExits() throws Exception {
        process = new ProcessBuilder(BuiltImages.file("workload").toString(), "report").start();
        assertThat(process.waitFor(5, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isZero();
        assertThat(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .isEqualTo(ownAffinity() + "\n");
    }

    /** What this JVM's own status says: a child inherits it, so the workload must print the same. */
    private static String ownAffinity() throws IOException {
        List<String> status = Files.readAllLines(Path.of("/proc/self/status"));
        return "affinity cpus=" + field(status, "Cpus_allowed_list:") + " mems=" + field(status, "Mems_allowed_list:");
    }

    private static String field(List<String> status, String key) {
        return status.stream()
                .filter(l -> l.startsWith(key))
                .map(l -> l.substring(key.length()).strip())
                .findFirst()
                .orElseThrow();
    }

    private static void signal(String name, Process target) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + name, Long.toString(target.pid()))
                        .start()
                        .waitFor())
                .isZero();
    }

    private static BlockingQueue<String> lines(Process p) {
        BlockingQueue<String> lines = new ArrayBlockingQueue<>(100);
        Thread reader = new Thread(() -> {
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // The process ended: no more lines.
            }
        });
        reader.setDaemon(true);
        reader.start();
        return lines;
    }
}
