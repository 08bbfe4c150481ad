package io.podnuma.controlplane;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.oci.PauseImage;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * A real worker node on this machine: containerd (private root, state, sockets and config), the CNI bridge
 * {@value #BRIDGE} on {@value #POD_SUBNET}, and a kubelet registered to a {@link LocalControlPlane} started with
 * {@link KubeletAccess#REAL_KUBELET}. Pods run as real processes under {@code /sys/fs/cgroup/<subsystem>/kubepods}.
 *
 * <p>One per machine at a time (the kubelet's ports 10250/10248 and several of its paths are fixed): {@link
 * #start} waits for the lock {@value #LOCK}. Everything the run changes outside its directory is recorded in
 * {@link HostChanges} before it happens; {@link #close} undoes it, and so does the next start after a killed JVM.
 */
public final class RealNode implements AutoCloseable {

    public static final String BRIDGE = "pn-cni0";
    public static final String POD_SUBNET = "10.88.0.0/16";
    /** The bridge's address on the pod network: pods reach the host (and its API server) there. */
    public static final String POD_GATEWAY = "10.88.0.1";
    /** The sandbox image containerd pins; the images build writes the same one (PauseImage of podnuma-oci). */
    public static final String PAUSE_IMAGE = PauseImage.NAME.reference();

    /**
     * With {@link RealNodeOptions.NriValidation} on: a pod annotated with this key and {@code "true"} is created
     * without the required NRI plugins (for the plugin's own pod and static pods).
     */
    public static final String NRI_TOLERATE_ANNOTATION = "tolerate-missing-plugins.podnuma.io";

    static final String BASE_DIR_PROPERTY = "podnuma.realnode.dir";
    static final Path DEFAULT_BASE_DIR = Path.of("/var/tmp/podnuma-realnode");
    static final String WORK_DIR_PREFIX = "realnode-work-";
    static final String LOCK = "realnode.lock";

    /** Set by the kubelet (the first four) and by the bridge plugin (ip_forward). */
    static final List<String> SYSCTLS = List.of(
            "vm.overcommit_memory",
            "vm.panic_on_oom",
            "kernel.panic",
            "kernel.panic_on_oops",
            "kernel.keys.root_maxkeys",
            "kernel.keys.root_maxbytes",
            "net.ipv4.ip_forward");
    /** Paths the kubelet, containerd and the CNI plugins use whatever their configuration says. */
    static final List<Path> FIXED_PATHS = List.of(
            Path.of("/run/containerd"),
            Path.of("/var/lib/kubelet"),
            Path.of("/var/log/containers"),
            Path.of("/var/log/pods"),
            Path.of("/var/lib/cni"),
            Path.of("/run/netns"),
            Path.of("/opt/containerd"),
            Path.of("/etc/cni"),
            Path.of("/opt/cni"));

    private static final Duration CONTAINERD_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    private final LocalControlPlane plane;
    private final Path binDir;
    private final Path runDir;
    private final Path logDir;
    private final HostChanges changes;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final List<ManagedProcess> processes = new ArrayList<>();
    private final Thread shutdownHook = new Thread(this::close, "podnuma-realnode-shutdown");
    private final String nodeName;
    private Duration startup = Duration.ZERO;
    private ManagedProcess containerd;
    private ManagedProcess kubelet;
    private Path containerdConfig;
    private NodeConfigs.Certificates certificates;
    private Path containerdSocket;
    private boolean closed;
    private boolean ownsPlane;

    private RealNode(LocalControlPlane plane, Path runDir, Path logDir, FileChannel lockChannel, FileLock lock) {
        this.plane = plane;
        this.binDir = plane.binDir();
        this.runDir = runDir;
        this.logDir = logDir;
        this.changes = new HostChanges(runDir, HostChanges.HostRoots.REAL);
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.nodeName = hostname();
    }

    /** Skips the calling test (JUnit assumption) with the reason printed when this machine cannot run a real node. */
    public static void assumeAvailable(Class<?> test) {
        Optional<String> unavailable = whyUnavailable();
        unavailable.ifPresent(why -> System.err.println("[" + test.getSimpleName() + "] skipped: " + why));
        Assumptions.assumeTrue(unavailable.isEmpty(), () -> unavailable.orElse(""));
    }

    /** Why a real node cannot run here, if it cannot: tests skip with this reason. */
    public static Optional<String> whyUnavailable() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return Optional.of("a real node needs root (the kubelet and containerd manage cgroups, mounts and"
                    + " network namespaces); running as " + System.getProperty("user.name"));
        }
        if (!Files.isDirectory(Path.of("/sys/fs/cgroup/cpuset"))) {
            return Optional.of("no cgroup v1 cpuset hierarchy at /sys/fs/cgroup/cpuset");
        }
        for (String tool : List.of("gcc", "ip", "umount")) {
            if (Commands.run(List.of("sh", "-c", "command -v " + tool), Map.of(), null, Duration.ofSeconds(10))
                            .exitCode()
                    != 0) {
                return Optional.of("no '" + tool + "' on PATH (the real node needs gcc, iproute2 and umount)");
            }
        }
        return Optional.empty();
    }

    /**
     * Starts a control plane for real kubelets (with controller-manager and scheduler) and a node against it; closing
     * the node closes the plane too. What most real-node tests want.
     */
    public static RealNode startWithPlane(RealNodeOptions options) {
        LocalControlPlane plane = LocalControlPlane.startForRealKubelet();
        try {
            plane.startControllers();
            RealNode node = start(plane, options);
            node.ownsPlane = true;
            return node;
        } catch (RuntimeException | Error e) {
            plane.close();
            throw e;
        }
    }

    /** Starts a node against {@code plane} (waiting for another JVM's node to go first) and waits for Ready. */
    public static RealNode start(LocalControlPlane plane, RealNodeOptions options) {
        if (plane.kubeletAccess() != KubeletAccess.REAL_KUBELET) {
            throw new IllegalArgumentException(
                    "the control plane must be started with KubeletAccess.REAL_KUBELET for a real kubelet to join");
        }
        whyUnavailable().ifPresent(reason -> {
            throw new ControlPlaneUnavailableException(reason);
        });
        Path base = Path.of(System.getProperty(BASE_DIR_PROPERTY, DEFAULT_BASE_DIR.toString()));
        Path logDir = Path.of(System.getProperty(LocalControlPlane.WORK_DIR_PROPERTY, "target"))
                .toAbsolutePath()
                .resolve("realnode-logs");
        FileChannel channel = null;
        FileLock lock;
        try {
            Files.createDirectories(base);
            channel = FileChannel.open(base.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            lock = channel.tryLock();
            if (lock == null) {
                System.err.println("[realnode] another test JVM has the real node; waiting for " + base.resolve(LOCK));
                lock = channel.lock();
            }
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot lock " + base.resolve(LOCK) + ": " + e.getMessage(), e);
        }
        undoDeadRuns(base);
        Path runDir = base.resolve(WORK_DIR_PREFIX + ProcessHandle.current().pid());
        RealNode node = new RealNode(plane, runDir, logDir, channel, lock);
        Runtime.getRuntime().addShutdownHook(node.shutdownHook);
        try {
            node.startAll(options);
            return node;
        } catch (RuntimeException | Error e) {
            node.printLogTails(System.err, 40);
            node.close();
            throw e;
        }
    }

    /** Undoes what killed JVMs' runs left under {@code base}; returns how many processes it stopped. */
    static int undoDeadRuns(Path base) {
        return undoDeadRuns(base, HostChanges.HostRoots.REAL);
    }

    static int undoDeadRuns(Path base, HostChanges.HostRoots roots) {
        int stopped = StaleRuns.reap(base, WORK_DIR_PREFIX, dir -> {
            System.err.println("[realnode] undoing what a killed test JVM's real node left: " + dir);
            new HostChanges(dir, roots).undo();
        });
        if (stopped > 0) {
            System.err.println("[realnode] stopped " + stopped + " processes left by a test JVM that was killed");
        }
        return stopped;
    }

    private static Path buildPauseImage(Path dir) {
        try {
            return PauseImage.build(dir).file();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build the pause image in " + dir + ": " + e.getMessage(), e);
        }
    }

    private void startAll(RealNodeOptions options) {
        long t0 = System.nanoTime();
        LocalControlPlane.deleteRecursively(runDir);
        LocalControlPlane.deleteRecursively(logDir);
        // Written down before anything happens, so a kill at any later point can be undone.
        changes.recordSysctls(SYSCTLS);
        changes.recordCreatedPaths(FIXED_PATHS);
        changes.recordCgroups("kubepods");
        changes.recordLink(BRIDGE);

        List<Path> images = new ArrayList<>();
        images.add(buildPauseImage(runDir.resolve("images")));
        images.addAll(options.images());

        Path socket = runDir.resolve("containerd/containerd.sock");
        containerdSocket = socket;
        containerdConfig = writeContainerdConfig(socket, options.nriValidation());
        startContainerd();
        for (Path image : images) {
            ctr("images", "import", image.toString()).assertSuccess();
        }
        writeCniConfig();

        kubelet = launch(
                "kubelet",
                Map.of(),
                binDir.resolve("kubelet").toString(),
                "--config=" + writeKubeletConfig(socket, options),
                "--kubeconfig=" + writeKubeletKubeconfig(),
                "--root-dir=" + kubeletRootDir(),
                "--v=1");
        awaitReady(kubelet);
        // The ServiceAccount admission refuses pods until the namespace's default account exists.
        plane.ensureNamespace("default");
        startup = Duration.ofNanos(System.nanoTime() - t0);
        System.err.println("[realnode] node " + nodeName + " Ready and untainted " + startup.toMillis()
                + " ms after start (run dir " + runDir + ")");
    }

    private void startContainerd() {
        containerd = launch(
                "containerd",
                Map.of("PATH", binDir + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin")),
                binDir.resolve("containerd").toString(),
                "--config=" + containerdConfig);
        awaitContainerd(containerd);
    }

    /**
     * Stops containerd (SIGTERM; running containers stay, their shims are apart) and starts it again with the same
     * configuration, as an upgrade or a crash-restart of the runtime does; returns once it answers again.
     */
    public Duration restartContainerd() {
        return restartContainerd(Optional.empty());
    }

    /** {@link #restartContainerd()} with NRI's default validator configured anew, as an admin changing it would. */
    public Duration restartContainerd(RealNodeOptions.NriValidation validation) {
        return restartContainerd(Optional.of(validation));
    }

    private Duration restartContainerd(Optional<RealNodeOptions.NriValidation> validation) {
        long t0 = System.nanoTime();
        ManagedProcess old;
        synchronized (this) {
            old = containerd;
            processes.remove(old);
        }
        old.close();
        validation.ifPresent(v -> containerdConfig = writeContainerdConfig(containerdSocket, v));
        startContainerd();
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    /**
     * Stops the kubelet (SIGTERM; the pods' containers run on, they belong to containerd) and starts it again with
     * the same flags, as a kubelet upgrade or crash-restart does; returns once it is healthy again and has posted a
     * Ready node status since its start (the Node object stays Ready meanwhile: the node controller's grace is 40 s).
     */
    public Duration restartKubelet() {
        long t0 = System.nanoTime();
        java.time.Instant stoppedAt = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        ManagedProcess old;
        synchronized (this) {
            old = kubelet;
            processes.remove(old);
        }
        old.close();
        ManagedProcess started;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the real node is closed; cannot start the kubelet again");
            }
            started = old.again();
            processes.add(started);
            StaleRuns.record(runDir, started.handle());
            kubelet = started;
        }
        awaitHeartbeatSince(started, stoppedAt);
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    /** Waits until the node's Ready condition is True with a heartbeat at or after {@code since}. */
    private void awaitHeartbeatSince(ManagedProcess kubelet, java.time.Instant since) {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (true) {
            kubelet.requireAlive();
            Node node = plane.client().nodes().withName(nodeName).get();
            boolean fresh = node != null
                    && node.getStatus() != null
                    && node.getStatus().getConditions() != null
                    && node.getStatus().getConditions().stream()
                            .anyMatch(c -> "Ready".equals(c.getType())
                                    && "True".equals(c.getStatus())
                                    && c.getLastHeartbeatTime() != null
                                    && !java.time.Instant.parse(c.getLastHeartbeatTime())
                                            .isBefore(since));
            if (fresh && untainted(node)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("node " + nodeName + " posted no Ready status within " + READY_TIMEOUT
                        + " of the kubelet's restart (last seen: "
                        + (node == null ? "not registered" : node.getStatus())
                        + "); see " + kubelet.log());
            }
            sleep(200);
        }
    }

    private Path writeContainerdConfig(Path socket, RealNodeOptions.NriValidation validation) {
        Path dir = runDir.resolve("containerd");
        String config = NodeConfigs.containerdConfiguration(
                new NodeConfigs.ContainerdPaths(
                        dir.toString(),
                        socket.toString(),
                        dir.resolve("nri.sock").toString(),
                        binDir.resolve("cni").toString(),
                        runDir.resolve("cni/conf").toString(),
                        binDir.resolve("runc").toString()),
                validatorLines(validation),
                "  # Root lacks CAP_SYS_RESOURCE on this kind of VM: runc must not lower oom_score_adj.\n"
                        + "  restrict_oom_score_adj = true\n",
                "");
        return write(dir.resolve("config.toml"), config);
    }

    /** The default validator's section (containerd's NRI >= v0.10): empty when it is off. */
    private static String validatorLines(RealNodeOptions.NriValidation validation) {
        if (!validation.enabled()) {
            return "";
        }
        String required = validation.requiredPlugins().stream()
                .map(p -> '"' + p + '"')
                .collect(java.util.stream.Collectors.joining(", "));
        return "  [plugins.'io.containerd.nri.v1.nri'.default_validator]\n"
                + "    enable = true\n"
                + "    required_plugins = [" + required + "]\n"
                + "    tolerate_missing_plugins_annotation = \"" + NRI_TOLERATE_ANNOTATION + "\"\n";
    }

    private void writeCniConfig() {
        write(
                runDir.resolve("cni/conf/10-podnuma.conflist"),
                NodeConfigs.cniConflist(
                        runDir.resolve("cni/ipam").toString(),
                        ",\n    {\"type\": \"portmap\", \"capabilities\": {\"portMappings\": true}}"));
    }

    private Path writeKubeletConfig(Path socket, RealNodeOptions options) {
        Path dir = runDir.resolve("kubelet");
        certificates = NodeConfigs.Certificates.issue(plane, dir.resolve("pki"), nodeName);
        String cpuManager = options.cpuManagerPolicy() == RealNodeOptions.CpuManagerPolicy.STATIC
                ? "cpuManagerPolicy: static\nreservedSystemCPUs: \"0\"\n"
                : "cpuManagerPolicy: none\n";
        cpuManager += options.topologyManager().kubeletLines();
        String host = """
                cgroupDriver: cgroupfs
                # kubelet 1.37 refuses cgroup v1 unless told otherwise; this machine has only v1 cpusets.
                failCgroupV1: false
                # The kubelet refuses a loopback node IP; it serves on loopback and the API server dials its hostname.
                address: 127.0.0.1
                healthzBindAddress: 127.0.0.1
                """;
        String config = NodeConfigs.kubeletConfiguration(
                new NodeConfigs.KubeletPaths(
                        plane.caCert().toString(),
                        certificates.serving().cert().toString(),
                        certificates.serving().key().toString(),
                        socket.toString(),
                        dir.toString()),
                host,
                cpuManager);
        return write(dir.resolve("config.yaml"), config);
    }

    private Path writeKubeletKubeconfig() {
        Pki.Issued client = certificates.client();
        return write(
                runDir.resolve("kubelet/kubeconfig"),
                NodeConfigs.kubeconfig(
                        plane.server(),
                        "",
                        plane.caCert().toString(),
                        client.cert().toString(),
                        client.key().toString()));
    }

    private void awaitContainerd(ManagedProcess containerd) {
        long deadline = System.nanoTime() + CONTAINERD_TIMEOUT.toNanos();
        while (true) {
            containerd.requireAlive();
            if (ctr("version").succeeded()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "containerd did not answer within " + CONTAINERD_TIMEOUT + "; see " + containerd.log());
            }
            sleep(200);
        }
    }

    private void awaitReady(ManagedProcess kubelet) {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (true) {
            kubelet.requireAlive();
            Node node = plane.client().nodes().withName(nodeName).get();
            if (node != null && isReady(node) && untainted(node)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("node " + nodeName + " was not Ready and untainted within "
                        + READY_TIMEOUT + " (last seen: "
                        + (node == null
                                ? "not registered"
                                : node.getStatus() + " taints " + node.getSpec().getTaints()) + "); see "
                        + kubelet.log());
            }
            sleep(200);
        }
    }

    static boolean isReady(Node node) {
        return node.getStatus() != null
                && node.getStatus().getConditions() != null
                && node.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    static boolean untainted(Node node) {
        return node.getSpec() == null
                || node.getSpec().getTaints() == null
                || node.getSpec().getTaints().isEmpty();
    }

    /** Runs {@code ctr} against this node's containerd in the {@code k8s.io} namespace (the kubelet's). */
    public CommandResult ctr(String... args) {
        List<String> command = new ArrayList<>(List.of(
                binDir.resolve("ctr").toString(),
                "--address",
                runDir.resolve("containerd/containerd.sock").toString(),
                "--namespace",
                "k8s.io"));
        command.addAll(List.of(args));
        return Commands.run(command, Map.of(), null, Commands.DEFAULT_TIMEOUT);
    }

    /** The host pid of a running container's first process, from containerd ({@code ctr tasks ls}). */
    public Optional<Long> containerPid(String containerId) {
        String id =
                containerId.startsWith("containerd://") ? containerId.substring("containerd://".length()) : containerId;
        for (String line : ctr("tasks", "ls").assertSuccess().stdout().lines().toList()) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length >= 3 && fields[0].equals(id) && "RUNNING".equals(fields[2])) {
                return Optional.of(Long.parseLong(fields[1]));
            }
        }
        return Optional.empty();
    }

    /**
     * Applies a pod with one container {@code main} running the pause image and waits (90 s at most) until it runs
     * with every container ID in its status ({@link NodePods#runPausePod}).
     */
    public Pod runPausePod(String namespace, String name, String podLines, String containerLines) {
        return NodePods.runPausePod(plane, namespace, name, podLines, containerLines);
    }

    /** Waits (90 s at most) until the pod runs with a container ID for every container ({@link NodePods}). */
    public Pod awaitRunning(String namespace, String name) {
        return NodePods.awaitRunning(plane, namespace, name, Duration.ofSeconds(90));
    }

    /** The control plane the node is registered with. */
    public LocalControlPlane plane() {
        return plane;
    }

    public String nodeName() {
        return nodeName;
    }

    /** From the first step of {@link #start} until the node was Ready and untainted. */
    public Duration startupTime() {
        return startup;
    }

    /** The kubelet's {@code --root-dir} (its {@code cpu_manager_state} and {@code pod-resources} socket). */
    public Path kubeletRootDir() {
        return runDir.resolve("kubelet/root");
    }

    /**
     * The kubelet's certificates and keys (its client key: the node's identity). Here beside its root directory, not in
     * it as on a kubeadm node ({@code <root-dir>/pki}).
     */
    public Path kubeletPkiDir() {
        return runDir.resolve("kubelet/pki");
    }

    /**
     * The socket device plugins register on. The kubelet's device manager keeps it at this fixed path whatever
     * {@code --root-dir} says (one of {@link #FIXED_PATHS}).
     */
    public Path kubeletDevicePluginSocket() {
        return Path.of("/var/lib/kubelet/device-plugins/kubelet.sock");
    }

    /** The kubelet's configuration file. */
    public Path kubeletConfigFile() {
        return runDir.resolve("kubelet/config.yaml");
    }

    /** The API server's port on loopback, as a pod on the host network dials it (there is no kube-proxy here). */
    public int apiServerPort() {
        return java.net.URI.create(plane.server()).getPort();
    }

    /**
     * {@code host:port} a pod on the pod network dials the API server on (the bridge's gateway; no kube-proxy here),
     * for its {@code KUBERNETES_SERVICE_HOST}/{@code _PORT}.
     */
    public String apiServerForPods() {
        return POD_GATEWAY + ":" + apiServerPort();
    }

    /** This run's private directory (containerd's root and state, the kubelet's root dir, the record). */
    /** containerd's NRI socket on this node (a private path; plugins connect here). */
    public Path nriSocket() {
        return runDir.resolve("containerd/nri.sock");
    }

    /** Where the kubelet writes container logs: {@code <namespace>_<pod>_<uid>/<container>/<restart>.log}. */
    public Path podLogsDir() {
        return runDir.resolve("kubelet/pod-logs");
    }

    public Path runDir() {
        return runDir;
    }

    public Path logDir() {
        return logDir;
    }

    public synchronized void printLogTails(PrintStream out, int lines) {
        ManagedProcess.printLogTails(processes, out, lines);
    }

    private synchronized ManagedProcess launch(String name, Map<String, String> env, String... command) {
        if (closed) {
            throw new IllegalStateException("the real node is closed; cannot start " + name);
        }
        ManagedProcess process = ManagedProcess.start(name, List.of(command), env, logDir);
        processes.add(process);
        StaleRuns.record(runDir, process.handle());
        return process;
    }

    /**
     * Stops the kubelet, then containerd, then undoes every recorded host change (remaining container processes
     * and shims, mounts, the bridge, the kubepods cgroups, sysctls, fixed paths), deletes the run directory and
     * releases the lock; then stops the plane if {@link #startWithPlane} started it. Logs stay in {@link #logDir()}.
     */
    @Override
    public void close() {
        List<ManagedProcess> toStop;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toStop = new ArrayList<>(processes);
        }
        for (int i = toStop.size() - 1; i >= 0; i--) {
            toStop.get(i).close();
        }
        List<String> problems = changes.undo();
        try {
            if (problems.isEmpty()) {
                LocalControlPlane.deleteRecursively(runDir);
            } else {
                System.err.println("[realnode] keeping " + runDir + " for the next start to retry: " + problems);
            }
        } catch (UncheckedIOException e) {
            System.err.println("[realnode] " + e.getMessage());
        }
        try {
            lock.release();
        } catch (IOException e) {
            System.err.println("[realnode] cannot release the lock: " + e.getMessage());
        }
        closeQuietly(lockChannel);
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // we are running inside the hook
        }
        if (ownsPlane) {
            plane.close();
        }
    }

    private static String hostname() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname"))
                    .strip()
                    .toLowerCase(java.util.Locale.ROOT);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the hostname: " + e.getMessage(), e);
        }
    }

    private static Path write(Path file, String content) {
        return NodeConfigs.write(file, content);
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing the lock file cannot lose anything
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the real node", e);
        }
    }
}
