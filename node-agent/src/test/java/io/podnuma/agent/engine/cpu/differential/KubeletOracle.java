package io.podnuma.agent.engine.cpu.differential;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.podnuma.testkit.GoModules;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The kubelet's static policy and topology manager merge as a process: builds {@code src/test/go/kubeletoracle} with
 * {@code go build} into the target directory and runs a whole batch of cases through one process
 * (restarting after a case on which the kubelet's code hangs, see the program's doc).
 */
final class KubeletOracle {

    /** Exit status of the oracle after a case that did not finish. */
    private static final int EXIT_HANG = 3;

    private final Path binary;
    private final Path workDir;
    private final Duration caseTimeout;

    private KubeletOracle(Path binary, Path workDir, Duration caseTimeout) {
        this.binary = binary;
        this.workDir = workDir;
        this.caseTimeout = caseTimeout;
    }

    /**
     * The Go command: {@code -Dpodnuma.diff.go}, else {@code go} on the PATH, else the usual install
     * location; empty when none runs.
     */
    /** The first seed of a run: {@code -Dpodnuma.diff.seed}, default 1; {@code random} picks a time-based one. */
    static long firstSeed() {
        String s = System.getProperty("podnuma.diff.seed", "1");
        return "random".equals(s) ? System.currentTimeMillis() : Long.parseLong(s);
    }

    /** {@code count} cases generated from consecutive seeds, appended to {@code into}. */
    static <C> List<C> generate(List<C> into, long firstSeed, int count, java.util.function.LongFunction<C> generator) {
        for (int i = 0; i < count; i++) {
            into.add(generator.apply(firstSeed + i));
        }
        return into;
    }

    /** The Java engine's answer for every case, by case id, in case order. */
    static <C, J> Map<String, J> javaAnswers(
            List<C> cases, java.util.function.Function<C, String> id, java.util.function.Function<C, J> answer) {
        Map<String, J> answers = new java.util.LinkedHashMap<>();
        for (C c : cases) {
            answers.put(id.apply(c), answer.apply(c));
        }
        return answers;
    }

    /**
     * The Go command; without one the calling test is skipped, with a printed reason that names the tests
     * still covering the same behaviour.
     */
    static Path goOrSkip(String test, String stillCovered) {
        Optional<Path> go = findGo();
        if (go.isEmpty()) {
            System.out.println(test + " skipped: no Go command (set -Dpodnuma.diff.go or put go on the PATH); "
                    + stillCovered + " still run");
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(go.isPresent(), "no Go command to build the kubelet oracle");
        return go.get();
    }

    /** Writes a differential run's {@code report.txt} into {@code dir} and prints its summary. */
    static Path writeReport(Path dir, String label, String summary, CharSequence report) throws IOException {
        Path file = dir.resolve("report.txt");
        java.nio.file.Files.writeString(file, summary + "\n\n" + report);
        System.out.println(summary);
        System.out.println(label + ": report in " + file);
        return file;
    }

    /** Appends one case that was not identical: its rerun line, its input and both answers. */
    static void appendCase(
            StringBuilder report,
            com.fasterxml.jackson.databind.ObjectMapper json,
            String line,
            Object input,
            Object java,
            Object kubelet)
            throws com.fasterxml.jackson.core.JsonProcessingException {
        report.append(line).append('\n');
        report.append("  input:   ").append(json.writeValueAsString(input)).append('\n');
        report.append("  java:    ").append(json.writeValueAsString(java)).append('\n');
        report.append("  kubelet: ").append(json.writeValueAsString(kubelet)).append("\n\n");
    }

    static Optional<Path> findGo() {
        List<Path> candidates = new ArrayList<>();
        String configured = System.getProperty("podnuma.diff.go");
        if (configured != null && !configured.isBlank()) {
            candidates.add(Path.of(configured));
        } else {
            String path = System.getenv().getOrDefault("PATH", "");
            for (String dir : path.split(java.io.File.pathSeparator)) {
                if (!dir.isEmpty()) {
                    candidates.add(Path.of(dir, "go"));
                }
            }
            candidates.add(Path.of("/usr/local/go/bin/go"));
        }
        return candidates.stream().filter(Files::isExecutable).findFirst();
    }

    /**
     * Builds the oracle (an up-to-date binary is reused).
     *
     * @param source the Go module directory
     * @param workDir where the binary, inputs and logs go (under {@code target/})
     * @throws IllegalStateException with the compiler output when the build fails
     */
    static KubeletOracle build(Path go, Path source, Path workDir, Duration caseTimeout)
            throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path binary = workDir.resolve("kubeletoracle");
        if (!upToDate(binary, source)) {
            // From the user's cache when these sources were built before (a fresh checkout would link it again).
            GoModules.build(go, source, binary, Map.of("CGO_ENABLED", "0"));
        }
        return new KubeletOracle(binary, workDir, caseTimeout);
    }

    /** The same binary with its inputs, replay file and logs in {@code dir} (another test's own place). */
    KubeletOracle workingIn(Path dir) throws IOException {
        Files.createDirectories(dir);
        return new KubeletOracle(binary, dir, caseTimeout);
    }

    private static boolean upToDate(Path binary, Path source) throws IOException {
        if (!Files.isExecutable(binary)) {
            return false;
        }
        long built = Files.getLastModifiedTime(binary).toMillis();
        try (var files = Files.list(source)) {
            return files.allMatch(f -> {
                try {
                    return Files.getLastModifiedTime(f).toMillis() < built;
                } catch (IOException e) {
                    return false;
                }
            });
        }
    }

    /** Runs every case; the answers by case id, in input order. */
    Map<String, Outcome> run(List<DiffCase> cases, ObjectMapper json) throws IOException, InterruptedException {
        return run(cases, DiffCase::id, Outcome.class, Outcome::id, Outcome::hang, json);
    }

    /**
     * Runs every case of any kind the oracle understands (one JSON line each); the answers by case id, in
     * input order.
     *
     * @param caseId the id of a case, echoed by the oracle in its answer
     * @param answerType the type each answer line is read as
     * @param answerId the id of an answer
     * @param hung whether an answer reports a case that did not finish
     */
    <C, A> Map<String, A> run(
            List<C> cases,
            Function<C, String> caseId,
            Class<A> answerType,
            Function<A, String> answerId,
            Predicate<A> hung,
            ObjectMapper json)
            throws IOException, InterruptedException {
        Map<String, A> out = new LinkedHashMap<>();
        Path stderr = workDir.resolve("kubeletoracle.stderr");
        Files.deleteIfExists(stderr);
        List<C> remaining = cases;
        int round = 0;
        while (!remaining.isEmpty()) {
            Path input = workDir.resolve("kubeletoracle-input-" + round++ + ".jsonl");
            try (BufferedWriter w = Files.newBufferedWriter(input, StandardCharsets.UTF_8)) {
                for (C c : remaining) {
                    w.write(json.writeValueAsString(c));
                    w.newLine();
                }
            }
            Process p = new ProcessBuilder(
                            binary.toAbsolutePath().toString(),
                            "-timeout",
                            caseTimeout.toMillis() + "ms",
                            input.toAbsolutePath().toString())
                    .redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()))
                    .start();
            p.getOutputStream().close();
            A last = null;
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    last = json.readValue(line, answerType);
                    out.put(answerId.apply(last), last);
                }
            }
            if (!p.waitFor(1, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException("the kubelet oracle did not exit after its output ended");
            }
            int status = p.exitValue();
            if (status == 0) {
                // The last input stays for replays by hand: kubeletoracle <file>.
                Files.move(input, workDir.resolve("cases.jsonl"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                break;
            }
            if (status != EXIT_HANG || last == null || !hung.test(last)) {
                throw new IllegalStateException(
                        "the kubelet oracle failed with status " + status + "; stderr:\n" + tail(stderr));
            }
            Files.delete(input);
            int done = 0;
            while (!caseId.apply(remaining.get(done)).equals(answerId.apply(last))) {
                done++;
            }
            remaining = remaining.subList(done + 1, remaining.size());
        }
        for (C c : cases) {
            if (!out.containsKey(caseId.apply(c))) {
                throw new IllegalStateException("the kubelet oracle gave no answer for case " + caseId.apply(c));
            }
        }
        return out;
    }

    private static String tail(Path file) throws IOException {
        if (!Files.exists(file)) {
            return "(none)";
        }
        List<String> lines = Files.readAllLines(file);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }
}
