package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * build-controlplane.sh with a fake {@code go} that "builds" tiny scripts: the cache key, the cache hit, the
 * version check and the output contract, in well under a second. The real build runs in the ITs.
 */
class BuildScriptTest {

    private static final List<String> MODULES =
            List.of("kubernetes", "etcd", "kwok", "helm", "containerd", "cni", "prometheus");

    @TempDir
    Path tmp;

    private Path module;
    private Path cache;
    private Path goLog;
    private Path go;
    private Path runc;

    private static final String ALL_VERSIONS =
            "Kubernetes v1.37.2 / etcd Version: 3.6.16 / kwok version v0.8.0 / v4.3.1 / containerd v2.4.2 / CNI v1.10.0"
                    + " / prometheus, version 3.16.0";

    @BeforeEach
    void copyScriptAndModules() throws IOException {
        module = tmp.resolve("controlplane");
        Path source = Path.of("").toAbsolutePath();
        Files.createDirectories(module);
        Files.copy(source.resolve("build-controlplane.sh"), module.resolve("build-controlplane.sh"));
        for (String m : MODULES) {
            Files.createDirectories(module.resolve(m));
            Files.copy(source.resolve(m).resolve("go.mod"), module.resolve(m).resolve("go.mod"));
            Files.copy(source.resolve(m).resolve("go.sum"), module.resolve(m).resolve("go.sum"));
        }
        cache = tmp.resolve("cache");
        goLog = tmp.resolve("go.log");
        go = fakeGo(ALL_VERSIONS);
        runc = tmp.resolve("runc");
        Files.writeString(runc, "#!/bin/sh\necho 'runc version 1.1.5+ds1'\n");
        Files.setPosixFilePermissions(runc, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /**
     * A go that answers `env` and `list -m` (a module's publication time), and for `build -o DIR ... PKGS` writes a
     * script per package printing {@code banner}; it logs each build and its ldflags.
     */
    private Path fakeGo(String banner) throws IOException {
        Path fake = tmp.resolve("go");
        Files.writeString(fake, """
                #!/usr/bin/env bash
                set -e
                if [ "$1" = env ]; then
                  case "$2" in GOVERSION) echo go1.99.0 ;; *) echo "/fake/$2" ;; esac
                  exit 0
                fi
                if [ "$1" = list ]; then echo 20261105-15:06:51; exit 0; fi
                [ "$1" = build ] || { echo "unexpected: $*" >&2; exit 9; }
                echo "build $(basename "$PWD")" >> "%s"
                shift
                out=""
                while [ $# -gt 0 ]; do
                  case "$1" in
                    -o) out="$2"; shift 2 ;;
                    -ldflags) echo "ldflags $(basename "$PWD") $2" >> "%s"; shift 2 ;;
                    -tags) shift 2 ;;
                    -*) shift ;;
                    *) name="${1##*/}"; [ "$name" = v3 ] && name=server
                       printf '#!/bin/sh\\necho "%s"\\n' > "$out/$name"; chmod +x "$out/$name"; shift ;;
                  esac
                done
                """.formatted(goLog, goLog, banner));
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        return fake;
    }

    private CommandResult run(String... args) {
        List<String> command = new java.util.ArrayList<>(
                List.of("bash", module.resolve("build-controlplane.sh").toString()));
        command.addAll(List.of(args));
        return Commands.run(
                command,
                Map.of("GO", go.toString(), "RUNC", runc.toString(), "PODNUMA_CACHE_DIR", cache.toString()),
                null,
                Duration.ofSeconds(60));
    }

    private List<String> goBuilds() throws IOException {
        return goLog("build ");
    }

    private List<String> goLog(String prefix) throws IOException {
        return Files.exists(goLog)
                ? Files.readAllLines(goLog).stream()
                        .filter(line -> line.startsWith(prefix))
                        .toList()
                : List.of();
    }

    @Test
    void buildsEveryToolOncePerModuleIntoAVersionedKeyAndPrintsTheBinDirLast() throws IOException {
        CommandResult first = run().assertSuccess();
        List<String> lines = first.stdout().lines().toList();
        Path bin = Path.of(lines.get(lines.size() - 1));

        assertThat(bin).startsWith(cache.resolve("controlplane")).endsWith(Path.of("bin"));
        assertThat(bin.getParent().getFileName().toString())
                .matches("k8s-v1\\.37\\.2_etcd-v3\\.6\\.16_kwok-v0\\.8\\.0_helm-v4\\.3\\.1"
                        + "_containerd-v2\\.4\\.2_cni-v1\\.10\\.0_prometheus-v0\\.316\\.0_[0-9a-f]{12}");
        assertThat(ControlPlaneBinaries.TOOLS)
                .allSatisfy(tool -> assertThat(bin.resolve(tool)).isExecutable());
        assertThat(bin.resolveSibling("build-info.txt")).content().contains("go=go1.99.0", "elapsed_seconds=");
        assertThat(goBuilds())
                .containsExactly(
                        "build kubernetes",
                        "build etcd",
                        "build kwok",
                        "build helm",
                        "build containerd",
                        "build cni",
                        "build prometheus");
        assertThat(first.stderr())
                .contains(
                        "[kubernetes v1.37.2] done in",
                        "[containerd v2.4.2] done in",
                        "[cni v1.10.0] done in",
                        "[prometheus v0.316.0] done in",
                        "[runc] runc version 1.1.5+ds1",
                        "built all tools in");
        assertThat(bin.resolveSibling("build-info.txt")).content().contains("runc=" + runc);
    }

    @Test
    void prometheusIsLinkedWithTheReleaseItsModuleVersionNamesAndTheModulesPublicationTime() throws IOException {
        run().assertSuccess();

        // github.com/prometheus/prometheus v0.316.0 is Prometheus 3.16.0; --version prints these variables.
        assertThat(goLog("ldflags prometheus"))
                .singleElement()
                .asString()
                .contains(
                        "-s -w",
                        "github.com/prometheus/common/version.Version=3.16.0 ",
                        "version.Revision=v0.316.0",
                        "version.BuildDate=20261105-15:06:51");
    }

    @Test
    void aSecondRunIsACacheHitWithoutBuilding() throws IOException {
        String bin = run("--print-bin-dir").assertSuccess().stdout();
        CommandResult second = run("--print-bin-dir").assertSuccess();

        assertThat(second.stdout()).isEqualTo(bin);
        assertThat(second.stderr()).contains("cache hit: " + bin.strip());
        assertThat(goBuilds()).hasSize(MODULES.size());
    }

    @Test
    void changingAWrapperModuleChangesTheKey() throws IOException {
        String before = run("--print-bin-dir").assertSuccess().stdout();
        Files.writeString(module.resolve("kwok/go.sum"), "# changed\n", java.nio.file.StandardOpenOption.APPEND);
        String after = run("--print-bin-dir").assertSuccess().stdout();

        assertThat(after).isNotEqualTo(before);
        assertThat(goBuilds()).hasSize(2 * MODULES.size());
    }

    @Test
    void aBinaryReportingTheWrongVersionFailsTheBuildAndLeavesNoCacheEntry() throws IOException {
        go = fakeGo("Kubernetes v0.0.0-master");
        CommandResult result = run();

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.stderr()).contains("kube-apiserver reports 'Kubernetes v0.0.0-master'", "v1.37.2");
        try (var entries = Files.list(cache.resolve("controlplane"))) {
            assertThat(entries.flatMap(dir -> java.util.stream.Stream.of(dir.resolve("bin"))))
                    .allSatisfy(bin -> assertThat(bin).doesNotExist());
        }
    }

    @Test
    void aMissingRuncFailsBeforeTheLongGoBuild() throws IOException {
        runc = tmp.resolve("no-such-runc");
        CommandResult result = run();

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.stderr()).contains("[runc] " + runc + " is not executable");
        assertThat(goBuilds()).isEmpty();
    }

    @Test
    void unknownArgumentsAreRejectedNamingTheAllowedOnes() {
        CommandResult result = run("--fast");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.stderr()).contains("unknown argument '--fast'", "--print-bin-dir");
    }
}
