package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A killed JVM's real-node run is undone by the next start, from its record alone: on a fake host (sysctls,
 * cgroup hierarchies and fixed paths in a temporary directory) with real processes standing in for the kubelet,
 * a shim and a container.
 */
class RealNodeLeftoversTest {

    @TempDir
    Path tmp;

    private Path base;
    private HostChanges.HostRoots roots;
    private final List<Process> processes = new java.util.ArrayList<>();

    @BeforeEach
    void fakeHost() throws IOException {
        base = tmp.resolve("realnode");
        roots = new HostChanges.HostRoots(
                tmp.resolve("proc-sys"), tmp.resolve("cgroup"), tmp.resolve("net"), Path.of("/proc"));
        write(roots.sysctl("vm.overcommit_memory"), "0\n");
        write(roots.sysctl("kernel.panic"), "1\n");
        write(roots.sysctl("net.ipv4.ip_forward"), "0\n");
        Files.createDirectories(roots.cgroupRoot().resolve("cpuset"));
        Files.createDirectories(roots.cgroupRoot().resolve("memory"));
        Files.createDirectories(roots.classNet());
        Files.createDirectories(tmp.resolve("host/var"));
    }

    @AfterEach
    void stopProcesses() {
        processes.forEach(Process::destroyForcibly);
    }

    private Process start(String... command) throws IOException {
        Process p = new ProcessBuilder(command).start();
        processes.add(p);
        return p;
    }

    private static void write(Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    private static long deadPid() throws IOException, InterruptedException {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor(10, TimeUnit.SECONDS);
        return gone.pid();
    }

    /** Plays a run: records, then changes the host the way the kubelet, containerd and CNI would. */
    private Path playRun(long ownerPid, List<Process> out) throws IOException {
        Path run = base.resolve(RealNode.WORK_DIR_PREFIX + ownerPid);
        HostChanges changes = new HostChanges(run, roots);
        changes.recordSysctls(List.of("vm.overcommit_memory", "kernel.panic", "net.ipv4.ip_forward", "no.such.one"));
        changes.recordCreatedPaths(
                List.of(tmp.resolve("host/var/lib/kubelet/device-plugins"), tmp.resolve("host/var")));
        changes.recordCgroups("kubepods");
        changes.recordLink("pn-test0");

        Process kubelet = start("sleep", "300");
        StaleRuns.record(run, kubelet.toHandle());
        // A shim names the run directory on its command line; a container lives in a kubepods cgroup.
        // (read, a shell builtin, waits on our open pipe: no child process that could outlive the shell)
        Process shim = start(
                "sh",
                "-c",
                "read line",
                run.resolve("containerd/containerd.sock").toString());
        Process container = start("sleep", "301");
        write(roots.cgroupRoot().resolve("cpuset/kubepods/besteffort/pod1/abc/cgroup.procs"), container.pid() + "\n");
        write(roots.cgroupRoot().resolve("memory/kubepods/besteffort/pod1/abc/cgroup.procs"), container.pid() + "\n");
        write(roots.sysctl("vm.overcommit_memory"), "1\n");
        write(roots.sysctl("kernel.panic"), "10\n");
        write(roots.sysctl("net.ipv4.ip_forward"), "1\n");
        write(tmp.resolve("host/var/lib/kubelet/device-plugins/kubelet.sock"), "");
        out.addAll(List.of(kubelet, shim, container));
        return run;
    }

    @Test
    void aDeadRunsRecordIsUndone() throws Exception {
        List<Process> run = new java.util.ArrayList<>();
        Path dir = playRun(deadPid(), run);

        assertThat(new HostChanges(dir, roots).recorded())
                .containsExactly(
                        new HostChanges.Sysctl("vm.overcommit_memory", "0"),
                        new HostChanges.Sysctl("kernel.panic", "1"),
                        new HostChanges.Sysctl("net.ipv4.ip_forward", "0"),
                        new HostChanges.CreatedPath(tmp.resolve("host/var/lib")),
                        new HostChanges.CreatedCgroup(roots.cgroupRoot().resolve("cpuset/kubepods")),
                        new HostChanges.CreatedCgroup(roots.cgroupRoot().resolve("memory/kubepods")),
                        new HostChanges.Link("pn-test0"));

        assertThat(RealNode.undoDeadRuns(base, roots)).isEqualTo(1);

        for (Process p : run) {
            assertThat(p.waitFor(20, TimeUnit.SECONDS))
                    .as("pid %d stopped", p.pid())
                    .isTrue();
        }
        assertThat(Files.readString(roots.sysctl("vm.overcommit_memory"))).isEqualTo("0");
        assertThat(Files.readString(roots.sysctl("kernel.panic"))).isEqualTo("1");
        assertThat(Files.readString(roots.sysctl("net.ipv4.ip_forward"))).isEqualTo("0");
        assertThat(tmp.resolve("host/var/lib")).doesNotExist();
        assertThat(tmp.resolve("host/var")).isDirectory();
        assertThat(roots.cgroupRoot().resolve("cpuset/kubepods")).doesNotExist();
        assertThat(roots.cgroupRoot().resolve("memory/kubepods")).doesNotExist();
        assertThat(roots.cgroupRoot().resolve("cpuset")).isDirectory();
        assertThat(dir).doesNotExist();
    }

    @Test
    void aLiveRunIsLeftAlone() throws Exception {
        List<Process> run = new java.util.ArrayList<>();
        Path dir = playRun(ProcessHandle.current().pid(), run);

        assertThat(RealNode.undoDeadRuns(base, roots)).isZero();

        assertThat(run).allSatisfy(p -> assertThat(p.isAlive()).isTrue());
        assertThat(Files.readString(roots.sysctl("kernel.panic"))).isEqualTo("10\n");
        assertThat(roots.cgroupRoot().resolve("cpuset/kubepods")).isDirectory();
        assertThat(dir.resolve(HostChanges.FILE)).exists();
    }

    @Test
    void anUnknownRecordLineIsIgnored() {
        assertThat(HostChanges.Change.parse("frobnicate x")).isEmpty();
        assertThat(HostChanges.Change.parse("sysctl kernel.panic")).isEmpty();
        assertThat(HostChanges.Change.parse("path /var/lib/cni"))
                .contains(new HostChanges.CreatedPath(Path.of("/var/lib/cni")));
    }
}
