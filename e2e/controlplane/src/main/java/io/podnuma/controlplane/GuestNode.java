package io.podnuma.controlplane;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.oci.PauseImage;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * A real worker node in a QEMU guest (software emulation): the same kubelet, containerd, runc and CNI plugins as
 * {@link RealNode}, on a multi-NUMA machine ({@link GuestTopology}) with cgroup v2 (unified, cpuset delegated) and the
 * kubelet's defaults for it ({@code failCgroupV1} stays true), registered to the host's {@link LocalControlPlane}.
 *
 * <p>The guest boots the busybox initramfs of {@link GuestKernel}; the host's {@code /usr} and {@code /etc} arrive
 * read-only over 9p, the control plane's binaries too (both with the guest's page cache, {@code cache=loose}: uncached,
 * each runc and shim start read its binary over 9p again, and a pod took minutes to stop under emulation), and this
 * node's run directory is the read-write {@code /work}:
 * its configuration, certificates, images, logs and a command channel ({@link #exec}). The guest reaches the API
 * server through QEMU's user networking (the host's loopback is {@code 10.0.2.2} there). Nothing of the guest lives on
 * the host outside the run directory: {@link #close} powers it off, deletes its Node and the directory (logs are kept
 * under {@code target/guestnode-logs}), and a run whose JVM was killed is reaped by the next start.
 *
 * <p>One fact of this guest shapes its configuration: runc cannot {@code pivot_root} out of an initramfs (its root is
 * not a mount point), so containers start with {@code NoPivotRoot}.
 */
public final class GuestNode implements AutoCloseable {

    public static final String BASE_DIR_PROPERTY = "podnuma.guestnode.baseDir";
    static final Path DEFAULT_BASE_DIR = Path.of("/var/tmp/podnuma-guestnode");
    static final String WORK_DIR_PREFIX = "guestnode-work-";
    static final Duration READY_TIMEOUT = Duration.ofSeconds(Long.getLong("podnuma.guestnode.readySeconds", 300));
    /** The kubelet's root directory in the guest (its checkpoints, pods' volumes), on the guest's tmpfs. */
    public static final String KUBELET_ROOT = "/var/lib/kubelet";
    /** The kubelet's configuration file in the guest. */
    public static final String KUBELET_CONFIG = "/work/kubelet/config.yaml";
    /** Where the guest's containers find the bin share. */
    static final String GUEST_BIN = "/opt/podnuma/bin";
    /** The run directory's logs: the serial console, the kubelet's, containerd's and the guest's run.sh. */
    static final List<String> LOGS = List.of("guest-console.log", "kubelet.log", "containerd.log", "run.log");

    private final LocalControlPlane plane;
    private final GuestNodeOptions options;
    private final String nodeName;
    private final Path runDir;
    private final List<String> backgroundLogs = new ArrayList<>();
    private final Path logDir;
    private final int kubeletPort;
    private final GuestLock lock;
    private final AtomicInteger commands = new AtomicInteger();
    private final Thread shutdownHook = new Thread(this::stop, "podnuma-guestnode-shutdown");
    private ManagedProcess qemu;
    private Duration bootToReady;
    private final List<Integer> forwardedPorts;
    private boolean closed;

    private GuestNode(LocalControlPlane plane, GuestNodeOptions options, Path runDir, Path logDir, GuestLock lock) {
        this.plane = plane;
        this.lock = lock;
        this.options = options;
        this.runDir = runDir;
        this.logDir = logDir;
        // The API server reaches kubelets by their Hostname address (the node name), resolved on the host: only
        // localhost resolves to where QEMU forwards the kubelet's port from.
        this.nodeName = "localhost";
        this.kubeletPort = FreePorts.next();
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < options.forwardedPorts(); i++) {
            ports.add(FreePorts.next());
        }
        this.forwardedPorts = List.copyOf(ports);
    }

    /** The ports of {@link GuestNodeOptions#withForwardedPorts}, picked after the guest lock was taken. */
    public List<Integer> forwardedPorts() {
        return forwardedPorts;
    }

    /**
     * Boots the guest and waits until its node is Ready.
     *
     * @throws ControlPlaneUnavailableException when this machine cannot boot a guest (the reason is in the message)
     */
    public static GuestNode start(LocalControlPlane plane, GuestNodeOptions options) {
        if (plane.kubeletAccess() != KubeletAccess.REAL_KUBELET) {
            throw new IllegalArgumentException(
                    "the control plane must be started with KubeletAccess.REAL_KUBELET for a real kubelet to join");
        }
        GuestKernel kernel = GuestKernel.prepare(options.kernel());
        Path base = Path.of(System.getProperty(BASE_DIR_PROPERTY, DEFAULT_BASE_DIR.toString()));
        GuestLock lock = GuestLock.take(base);
        int reaped = StaleRuns.reap(base, WORK_DIR_PREFIX);
        if (reaped > 0) {
            System.err.println("[guestnode] stopped " + reaped + " guests left by a test JVM that was killed");
        }
        Path runDir = base.resolve(WORK_DIR_PREFIX + ProcessHandle.current().pid());
        Path logDir = Path.of(System.getProperty(LocalControlPlane.WORK_DIR_PROPERTY, "target"))
                .toAbsolutePath()
                .resolve("guestnode-logs");
        GuestNode node = new GuestNode(plane, options, runDir, logDir, lock);
        Runtime.getRuntime().addShutdownHook(node.shutdownHook);
        try {
            node.boot(kernel);
            return node;
        } catch (RuntimeException | Error e) {
            node.printLogTails(System.err, 40);
            node.close();
            throw e;
        }
    }

    private void boot(GuestKernel kernel) {
        LocalControlPlane.deleteRecursively(runDir);
        GuestNodeFiles files = new GuestNodeFiles(plane, nodeName, runDir, options, kubeletPort);
        files.write();
        long preload = System.nanoTime();
        String imported = ContainerdPreload.build(plane.binDir(), runDir, images());
        Duration preloaded = Duration.ofNanos(System.nanoTime() - preload);
        // The controller-manager publishes kube-root-ca.crt (a pod with a ServiceAccount token waits for it) and lifts
        // the node's not-ready taint; the scheduler places pods that name no node.
        plane.startControllers();
        List<String> cmd = new ArrayList<>(GuestKernel.emulator(options.priority()));
        cmd.addAll(options.topology().qemuArguments());
        cmd.addAll(kernel.qemuArguments());
        StringBuilder netdev = new StringBuilder("user,id=n0");
        List<Integer> forwarded = new ArrayList<>(forwardedPorts);
        forwarded.add(kubeletPort);
        forwarded.forEach(port -> netdev.append(",hostfwd=tcp:127.0.0.1:" + port + "-:" + port));
        cmd.addAll(List.of("-netdev", netdev.toString(), "-device", "virtio-net-pci,netdev=n0"));
        cmd.addAll(GuestKernel.share(Path.of("/usr"), "usr", true));
        cmd.addAll(GuestKernel.share(Path.of("/etc"), "etc", true));
        cmd.addAll(GuestKernel.share(plane.binDir(), "bin", true));
        cmd.addAll(GuestKernel.share(runDir, "work", false));
        long t0 = System.nanoTime();
        qemu = ManagedProcess.start("guest-console", cmd, runDir);
        StaleRuns.record(runDir, qemu.handle());
        awaitReady(t0);
        bootToReady = Duration.ofNanos(System.nanoTime() - t0);
        System.err.println("[guestnode] node " + nodeName + " ("
                + options.topology().nodes() + " NUMA nodes, "
                + options.topology().cpus() + " CPUs, cgroup v2) Ready " + bootToReady.toMillis()
                + " ms after the guest started; " + (options.images().size() + 1) + " images imported on the host in "
                + preloaded.toMillis() + " ms before it (run dir " + runDir + "):\n"
                + imported.strip());
    }

    /** The pause image (built here) and the options' images, as OCI tars. */
    private List<Path> images() {
        try {
            Path dir = Files.createDirectories(runDir.resolve("images"));
            PauseImage.build(dir);
            List<Path> all = new ArrayList<>(List.of(dir.resolve(PauseImage.TAR_FILE_NAME)));
            all.addAll(options.images());
            return all;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build the pause image in " + runDir + ": " + e.getMessage(), e);
        }
    }

    private void awaitReady(long t0) {
        long deadline = t0 + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!qemu.isAlive()) {
                throw new IllegalStateException(
                        "the guest powered off before its node was Ready (qemu exit " + qemu.exitValue() + ")");
            }
            if (ready()) {
                return;
            }
            sleep(Duration.ofMillis(500));
        }
        throw new IllegalStateException("node " + nodeName + " was not Ready within " + READY_TIMEOUT.toSeconds()
                + " s of the guest's start (-Dpodnuma.guestnode.readySeconds changes it)");
    }

    private boolean ready() {
        try {
            Node n = plane.client().nodes().withName(nodeName).get();
            return n != null
                    && n.getStatus() != null
                    && n.getStatus().getConditions().stream()
                            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * Runs {@code script} with the guest's {@code sh} as root and returns what it printed (stdout and stderr).
     *
     * @throws IllegalStateException when it exits non-zero or takes longer than {@code timeout}
     */
    public String exec(String script, Duration timeout) {
        int n = commands.incrementAndGet();
        Path dir = runDir.resolve("cmd");
        Path out = dir.resolve(n + ".out");
        Path rc = dir.resolve(n + ".rc");
        try {
            Files.createDirectories(dir);
            Path tmp = dir.resolve(n + ".tmp");
            Files.writeString(tmp, script);
            // The guest picks up *.sh only: the rename makes the whole script appear at once.
            Files.move(tmp, dir.resolve(n + ".sh"), StandardCopyOption.ATOMIC_MOVE);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!Files.exists(rc)) {
                if (System.nanoTime() > deadline || !qemu.isAlive()) {
                    throw new IllegalStateException("command " + n + " did not finish in the guest within "
                            + timeout.toMillis() + " ms" + (qemu.isAlive() ? "" : " (the guest is gone)") + ":\n"
                            + script);
                }
                sleep(Duration.ofMillis(100));
            }
            String output = Files.readString(out, StandardCharsets.UTF_8);
            String code = Files.readString(rc).strip();
            if (!code.equals("0")) {
                throw new IllegalStateException(
                        "command " + n + " exited " + code + " in the guest:\n" + script + "\noutput:\n" + output);
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException("command channel " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Starts {@code program}, a static program of this host, in the guest as root, in the background beside the
     * kubelet until the guest stops (e.g. a device plugin): copied into the run directory, the guest's {@code /work},
     * and run from there with {@code args}; its output goes to {@code <name>.log} there, kept and shown with the
     * guest's other logs.
     */
    public synchronized void runInBackground(Path program, List<String> args) {
        String name = program.getFileName().toString();
        try {
            Path copy = runDir.resolve(name + ".tmp");
            Files.copy(program, copy, StandardCopyOption.REPLACE_EXISTING);
            copy.toFile().setExecutable(true);
            Files.move(copy, runDir.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + program + " into " + runDir + ": " + e.getMessage(), e);
        }
        String quoted =
                args.stream().map(a -> "'" + a.replace("'", "'\\''") + "'").collect(Collectors.joining(" "));
        exec("nohup /work/" + name + " " + quoted + " > /work/" + name + ".log 2>&1 &\n", Duration.ofSeconds(60));
        backgroundLogs.add(name + ".log");
    }

    /** The logs kept and shown: the guest's own, then those of the programs run in the background. */
    private synchronized List<String> logs() {
        List<String> all = new ArrayList<>(LOGS);
        all.addAll(backgroundLogs);
        return all;
    }

    /**
     * Applies a pod with one container {@code main} running the pause image on this node and waits until it runs
     * ({@link RealNode#runPausePod}); {@code podLines} must not set {@code nodeName}.
     */
    public Pod runPausePod(String namespace, String name, String podLines, String containerLines) {
        return NodePods.runPausePod(
                plane, namespace, name, "  nodeName: " + nodeName + "\n" + podLines, containerLines);
    }

    /**
     * Waits (300 s at most) until the pod runs with a container ID for every container, sidecars included: a sandbox
     * and its containers take 20–30 s under emulation, and over 90 s while the build's other modules load the host.
     */
    public Pod awaitRunning(String namespace, String name) {
        return NodePods.awaitRunning(plane, namespace, name, Duration.ofSeconds(300));
    }

    /**
     * What {@code /proc/<pid>/status} of the container's first process says in the guest: {@code Cpus_allowed_list}
     * and {@code Mems_allowed_list}, read from the container's own cgroup (cgroupfs naming, Guaranteed QoS).
     */
    public String allowedLists(Pod pod, String container) {
        String id = pod.getStatus().getContainerStatuses().stream()
                .filter(c -> c.getName().equals(container))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("pod has no container " + container))
                .getContainerID()
                .replaceFirst("^containerd://", "");
        return exec(
                "pid=$(head -1 $(find /sys/fs/cgroup/kubepods -type d -name " + id + ")/cgroup.procs)\n"
                        + "grep -E '^(Cpus|Mems)_allowed_list' /proc/$pid/status\n",
                Duration.ofSeconds(30));
    }

    /**
     * The guest's topology files ({@code devices/system/cpu} and {@code devices/system/node}: CPU lists, topology
     * ids, caches, node memory, distances, huge pages), copied into the run directory; the returned directory is a
     * sysfs root for {@code node-agent simulate --sysfs}.
     */
    public Path sysfsSnapshot() {
        // Shell builtins (read, printf) where they can, one mkdir: under emulation every program started costs tens
        // of ms, and four NUMA nodes have some 500 files. Every file but meminfo is one line.
        exec("""
                d=/work/sysfs
                rm -rf $d
                set -- /sys/devices/system/cpu/online /sys/devices/system/cpu/offline \\
                        /sys/devices/system/cpu/cpu[0-9]*/topology/* \\
                        /sys/devices/system/cpu/cpu[0-9]*/cache/index*/level \\
                        /sys/devices/system/cpu/cpu[0-9]*/cache/index*/type \\
                        /sys/devices/system/cpu/cpu[0-9]*/cache/index*/id \\
                        /sys/devices/system/cpu/cpu[0-9]*/cache/index*/shared_cpu_list \\
                        /sys/devices/system/node/node[0-9]*/cpulist /sys/devices/system/node/node[0-9]*/distance \\
                        /sys/devices/system/node/node[0-9]*/hugepages/*/nr_hugepages
                dirs=""
                for f in "$@"; do dirs="$dirs $d${f%/*}"; done
                mkdir -p $dirs $d/sys/devices/system/node
                for f in "$@"; do
                    [ -f "$f" ] || continue
                    # Some attributes (CPU lists) refuse the shell's one-byte reads: cat those.
                    if read -r v < "$f"; then printf '%s\\n' "$v" > "$d$f"; else cat "$f" > "$d$f"; fi
                done 2>/dev/null
                for n in /sys/devices/system/node/node[0-9]*; do cat $n/meminfo > $d$n/meminfo; done
                """, Duration.ofSeconds(180));
        return runDir.resolve("sysfs/sys");
    }

    /** What a container's first process may use, and its cgroup's effective cpuset, as the guest's kernel says. */
    public record ContainerCgroup(
            String containerId, String cpusAllowed, String memsAllowed, String cpusEffective, String memsEffective) {}

    /** Every container under the kubelet's {@code kubepods} cgroup (cgroupfs naming) that has a process, by ID. */
    public Map<String, ContainerCgroup> containerCgroups() {
        String out = exec("""
                for procs in $(find /sys/fs/cgroup/kubepods -name cgroup.procs); do
                    dir=${procs%/cgroup.procs}
                    pid=$(head -1 "$procs")
                    [ -n "$pid" ] || continue
                    case "$(basename "$dir")" in pod*) continue ;; esac
                    cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$pid/status)
                    mems=$(sed -n 's/^Mems_allowed_list:[[:space:]]*//p' /proc/$pid/status)
                    echo "$(basename "$dir")|$cpus|$mems|$(cat "$dir/cpuset.cpus.effective")|$(cat "$dir/cpuset.mems.effective")"
                done
                """, Duration.ofSeconds(60));
        Map<String, ContainerCgroup> byId = new TreeMap<>();
        for (String line : out.lines().toList()) {
            String[] f = line.split("\\|", -1);
            if (f.length == 5) {
                byId.put(f[0], new ContainerCgroup(f[0], f[1], f[2], f[3], f[4]));
            }
        }
        return byId;
    }

    /**
     * Kills every process of the container with SIGKILL, as a crash would (the kubelet then restarts it as its pod's
     * restart policy says); returns how many processes were killed.
     */
    public int killContainer(String containerId) {
        String id = containerId.replaceFirst("^[a-z]+://", "");
        if (!id.matches("[0-9a-f]{12,64}")) {
            throw new IllegalArgumentException("not a container ID: " + containerId);
        }
        String out = exec("""
                n=0
                for procs in $(find /sys/fs/cgroup/kubepods -path '*/%s/cgroup.procs'); do
                    for pid in $(cat "$procs"); do kill -9 "$pid" && n=$((n + 1)); done
                done
                echo "$n"
                """.formatted(id), Duration.ofSeconds(60));
        return Integer.parseInt(out.strip());
    }

    /** A line a container wrote to its log, and which run of the container wrote it (0 for the first). */
    public record LoggedLine(String podUid, String container, int run, String line) {}

    /**
     * The last line matching {@code regex} (extended, as {@code grep -E} reads it) in each container log of namespace
     * {@code namespace}, one per container run, read from the kubelet's {@code podLogsDir} in one command: what the
     * containers print about themselves, without a {@code kubectl exec} (a runc process under emulation, seconds
     * each) or an API call per container. A run that printed no such line is left out.
     */
    public List<LoggedLine> lastLogLines(String namespace, String regex) {
        if (regex.contains("'") || namespace.contains("'")) {
            throw new IllegalArgumentException(
                    "no single quote in a namespace or a log pattern: " + namespace + ", " + regex);
        }
        String out = exec("""
                logs=$(sed -n 's/^podLogsDir: *//p' %s)
                for f in "$logs"/'%s'_*/*/*.log; do
                    [ -f "$f" ] || continue
                    line=$(grep -E '%s' "$f" | tail -n 1)
                    [ -n "$line" ] || continue
                    d=${f%%/*}
                    p=${d%%/*}
                    f=${f##*/}
                    echo "${p##*_}|${d##*/}|${f%%.log}|$line"
                done
                """.formatted(KUBELET_CONFIG, namespace, regex), Duration.ofSeconds(60));
        List<LoggedLine> lines = new ArrayList<>();
        for (String l : out.lines().toList()) {
            String[] f = l.split("\\|", 4);
            if (f.length == 4 && f[2].matches("\\d+")) {
                lines.add(new LoggedLine(f[0], f[1], Integer.parseInt(f[2]), f[3]));
            }
        }
        return lines;
    }

    /**
     * The last {@code lines} lines of each container log of namespace {@code namespace} (each run's file after a line
     * naming it), from the kubelet's {@code podLogsDir} in one command: what a wait that timed out should show of a
     * container that does not get ready.
     */
    public String logTails(String namespace, int lines) {
        if (namespace.contains("'")) {
            throw new IllegalArgumentException("no single quote in a namespace: " + namespace);
        }
        return exec("""
                logs=$(sed -n 's/^podLogsDir: *//p' %s)
                for f in "$logs"/'%s'_*/*/*.log; do
                    [ -f "$f" ] || continue
                    echo "== ${f#"$logs"/}"
                    tail -n %d "$f"
                done
                """.formatted(KUBELET_CONFIG, namespace, lines), Duration.ofSeconds(60));
    }

    /** The API server's {@code host:port} as the guest and its host-network pods dial it. */
    public String apiServerFromGuest() {
        return GuestNodeFiles.HOST_FROM_GUEST + ":"
                + plane.server().substring(plane.server().lastIndexOf(':') + 1);
    }

    public String nodeName() {
        return nodeName;
    }

    public GuestTopology topology() {
        return options.topology();
    }

    /** From the start of the emulator until the Node said Ready. */
    public Duration bootToReady() {
        return bootToReady;
    }

    public LocalControlPlane plane() {
        return plane;
    }

    /** The last lines of the console, the kubelet's and containerd's logs. */
    public synchronized void printLogTails(PrintStream out, int lines) {
        for (String log : logs()) {
            Path file = runDir.resolve(log);
            if (!Files.isRegularFile(file)) {
                continue;
            }
            try {
                List<String> all = Files.readAllLines(file, StandardCharsets.ISO_8859_1);
                out.println("---- " + file + " (last " + lines + " lines) ----");
                all.subList(Math.max(0, all.size() - lines), all.size()).forEach(out::println);
            } catch (IOException e) {
                out.println("---- " + file + ": " + e.getMessage());
            }
        }
    }

    /** Powers the guest off, deletes its Node and its run directory (the logs are kept under target). */
    @Override
    public synchronized void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs or has run
        }
    }

    private synchronized void stop() {
        if (closed) {
            return;
        }
        closed = true;
        if (qemu != null && qemu.isAlive()) {
            try {
                Files.writeString(runDir.resolve("stop"), "");
                qemu.handle().onExit().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                // The guest did not power off in time: it has nothing of the host's to give back.
            }
            qemu.close();
        }
        try {
            plane.client().nodes().withName(nodeName).delete();
        } catch (RuntimeException e) {
            // The plane may be stopping first; the Node dies with its etcd.
        }
        keepLogs();
        LocalControlPlane.deleteRecursively(runDir);
        lock.release();
    }

    private void keepLogs() {
        try {
            Files.createDirectories(logDir);
            for (String log : logs()) {
                Path file = runDir.resolve(log);
                if (Files.isRegularFile(file)) {
                    Files.copy(file, logDir.resolve(log), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            System.err.println("[guestnode] could not keep the logs of " + runDir + ": " + e.getMessage());
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
