package io.podnuma.controlplane;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds the control-plane binaries: the directory named by {@value #BIN_ENV}, or the one that
 * {@value #SCRIPT} prints (it builds them first when its cache misses).
 */
final class ControlPlaneBinaries {

    static final String BIN_ENV = "PODNUMA_CONTROLPLANE_BIN";
    static final String SCRIPT = "build-controlplane.sh";
    static final String SCRIPT_PROPERTY = "podnuma.controlplane.script";
    static final List<String> TOOLS =
            List.of("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kubectl", "kwok", "helm");

    private ControlPlaneBinaries() {}

    /**
     * @throws ControlPlaneUnavailableException when this machine cannot provide the binaries at all
     * @throws IllegalStateException when it should, but something is broken (a failed build, a bad path)
     */
    static Path locate() {
        String fromEnv = System.getenv(BIN_ENV);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return requireComplete(Path.of(fromEnv), BIN_ENV + "=" + fromEnv);
        }
        Path script = findScript()
                .orElseThrow(() -> new ControlPlaneUnavailableException("no " + SCRIPT + " found above "
                        + Path.of("").toAbsolutePath() + "; set " + BIN_ENV + " to a directory with "
                        + String.join(", ", TOOLS) + " or -D" + SCRIPT_PROPERTY + "=/path/to/" + SCRIPT));
        if (findGo().isEmpty()) {
            throw new ControlPlaneUnavailableException("no Go toolchain (neither 'go' on PATH nor /usr/local/go/bin/go)"
                    + " to build the control plane with " + script + "; install Go 1.26+ or set " + BIN_ENV);
        }
        return requireComplete(runScript(script), script + " --print-bin-dir");
    }

    static Optional<Path> findGo() {
        String goEnv = System.getenv("GO");
        if (goEnv != null && Files.isExecutable(Path.of(goEnv))) {
            return Optional.of(Path.of(goEnv));
        }
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "go"))) {
                return Optional.of(Path.of(dir, "go"));
            }
        }
        Path usual = Path.of("/usr/local/go/bin/go");
        return Files.isExecutable(usual) ? Optional.of(usual) : Optional.empty();
    }

    private static Optional<Path> findScript() {
        String property = System.getProperty(SCRIPT_PROPERTY);
        if (property != null && !property.isBlank()) {
            return Optional.of(Path.of(property));
        }
        // Tests run from their module's directory, which is this module or a sibling somewhere below the root.
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            for (Path candidate : List.of(
                    dir.resolve(SCRIPT),
                    dir.resolve("e2e").resolve("controlplane").resolve(SCRIPT))) {
                if (Files.isRegularFile(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    /** Runs the build script, echoing its progress (a cold build takes many minutes) to our stderr. */
    private static Path runScript(Path script) {
        List<String> command = List.of("bash", script.toString(), "--print-bin-dir");
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        findGo().ifPresent(go -> builder.environment().putIfAbsent("GO", go.toString()));
        try {
            Process process = builder.start();
            List<String> stdout = new ArrayList<>();
            try (BufferedReader reader =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                reader.lines().forEach(stdout::add);
            }
            int exit = process.waitFor();
            if (exit != 0 || stdout.isEmpty()) {
                throw new IllegalStateException(String.join(" ", command) + " failed with exit code " + exit
                        + " (its progress and error are printed above on stderr)");
            }
            return Path.of(stdout.get(stdout.size() - 1).strip());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building the control plane", e);
        }
    }

    private static Path requireComplete(Path dir, String origin) {
        List<String> missing = TOOLS.stream()
                .filter(tool -> !Files.isExecutable(dir.resolve(tool)))
                .toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException(origin + " gave " + dir + ", which lacks the executables " + missing
                    + " (needs all of " + TOOLS + "); run e2e/controlplane/" + SCRIPT + " to build them");
        }
        return dir.toAbsolutePath();
    }
}
