package io.podnuma.controlplane;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the control-plane binaries: the directory named by {@value #BIN_ENV}, or the one that
 * {@value #SCRIPT} prints (it builds them first when its cache misses).
 */
final class ControlPlaneBinaries {

    static final String BIN_ENV = "PODNUMA_CONTROLPLANE_BIN";
    static final String SCRIPT = "build-controlplane.sh";
    static final String SCRIPT_PROPERTY = "podnuma.controlplane.script";
    /** Every executable the script puts in the bin dir, relative to it (the CNI plugins have their own dir). */
    static final List<String> TOOLS = List.of(
            "etcd",
            "kube-apiserver",
            "kube-controller-manager",
            "kube-scheduler",
            "kubectl",
            "kwok",
            "helm",
            "kubelet",
            "containerd",
            "ctr",
            "containerd-shim-runc-v2",
            "runc",
            "cni/bridge",
            "cni/host-local",
            "cni/loopback",
            "cni/portmap",
            "prometheus",
            "promtool");

    private static final List<Path> USUAL_GO = List.of(Path.of("/usr/local/go/bin/go"));

    private final Map<String, String> env;
    private final String scriptProperty;
    private final Path workingDir;
    private final List<Path> usualGo;

    /** Inputs are explicit so tests can play a machine without Go, without a script, and so on. */
    ControlPlaneBinaries(Map<String, String> env, String scriptProperty, Path workingDir, List<Path> usualGo) {
        this.env = env;
        this.scriptProperty = scriptProperty;
        this.workingDir = workingDir;
        this.usualGo = usualGo;
    }

    static Path locate() {
        return new ControlPlaneBinaries(
                        System.getenv(),
                        System.getProperty(SCRIPT_PROPERTY),
                        Path.of("").toAbsolutePath(),
                        USUAL_GO)
                .find();
    }

    /**
     * @throws ControlPlaneUnavailableException when this machine cannot provide the binaries at all
     * @throws IllegalStateException when it should, but something is broken (a failed build, a bad path)
     */
    Path find() {
        String fromEnv = env.get(BIN_ENV);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return requireComplete(Path.of(fromEnv), BIN_ENV + "=" + fromEnv);
        }
        Path script = findScript()
                .orElseThrow(() -> new ControlPlaneUnavailableException("no " + SCRIPT + " found in or above "
                        + workingDir + "; set " + BIN_ENV + " to a directory with " + String.join(", ", TOOLS)
                        + " or -D" + SCRIPT_PROPERTY + "=/path/to/" + SCRIPT));
        Path go = findGo().orElseThrow(() -> new ControlPlaneUnavailableException(
                "no Go toolchain (neither $GO, 'go' on PATH nor " + usualGo + ") to build the control plane" + " with "
                        + script + "; install Go 1.26 or newer, or set " + BIN_ENV));
        return requireComplete(runScript(script, go), script + " --print-bin-dir");
    }

    Optional<Path> findGo() {
        List<Path> candidates = new ArrayList<>();
        String goEnv = env.get("GO");
        if (goEnv != null && !goEnv.isBlank()) {
            candidates.add(Path.of(goEnv));
        }
        for (String dir : env.getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                candidates.add(Path.of(dir, "go"));
            }
        }
        candidates.addAll(usualGo);
        return candidates.stream().filter(Files::isExecutable).findFirst();
    }

    private Optional<Path> findScript() {
        if (scriptProperty != null && !scriptProperty.isBlank()) {
            Path script = Path.of(scriptProperty);
            if (!Files.isRegularFile(script)) {
                throw new IllegalStateException("-D" + SCRIPT_PROPERTY + "=" + scriptProperty + " is not a file");
            }
            return Optional.of(script);
        }
        // Tests run from their module's directory: this module, or another one below the repository root.
        for (Path dir = workingDir; dir != null; dir = dir.getParent()) {
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
    private static Path runScript(Path script, Path go) {
        List<String> command = List.of("bash", script.toString(), "--print-bin-dir");
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("GO", go.toString());
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
