package io.podnuma.controlplane;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Runs etcd and kube-apiserver as child processes on free loopback ports, and kube-controller-manager,
 * kube-scheduler and kwok once a test asks for nodes. Everything it starts is stopped by {@link #close()},
 * which also runs from a shutdown hook if the JVM exits first.
 */
public final class LocalControlPlane implements ControlPlane, AutoCloseable {

    static final String SERVICE_CIDR = "10.96.0.0/16";
    static final String SERVICE_IP = "10.96.0.1";
    /** Pod addresses kwok hands out; apart from the service range so the two never collide. */
    static final String POD_CIDR = "10.244.0.0/16";

    static final String WORK_DIR_PROPERTY = "podnuma.controlplane.dir";
    private static final int START_ATTEMPTS = 3;
    private static final Duration ETCD_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration APISERVER_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration CONTROLLER_TIMEOUT = Duration.ofSeconds(60);
    /** See {@link #relaunchExitedNodeComponents()}. */
    static final int NODE_COMPONENT_RELAUNCHES = 3;

    private final Path binDir;
    private final KubeletAccess kubeletAccess;
    private final Privileged privileged;
    private final Path workDir;
    private final Path logDir;
    private final List<ManagedProcess> processes = new ArrayList<>();
    private final Thread shutdownHook = new Thread(this::close, "podnuma-controlplane-shutdown");

    private Pki pki;
    private String openssl;
    private String server;
    private Kubeconfigs kubeconfigs;
    private Path adminKubeconfig;
    private KubernetesClient admin;
    private KwokNodes kwokNodes;
    private ManagedProcess apiServer;
    private ManagedProcess etcd;
    private String etcdUrl;
    private boolean closed;
    private int nodeComponentRelaunches;

    private LocalControlPlane(
            Path binDir, KubeletAccess kubeletAccess, Privileged privileged, Path workDir, Path logDir) {
        this.binDir = binDir;
        this.kubeletAccess = kubeletAccess;
        this.privileged = privileged;
        this.workDir = workDir;
        this.logDir = logDir;
    }

    /**
     * Starts a plane with the binaries {@link ControlPlaneBinaries} finds (building them if needed), working
     * under {@code target/} of the current directory or {@code -Dpodnuma.controlplane.dir}.
     *
     * @throws ControlPlaneUnavailableException when this machine cannot run it (no Go, no openssl)
     */
    public static LocalControlPlane start() {
        String base = System.getProperty(WORK_DIR_PROPERTY, "target");
        return start(ControlPlaneBinaries.locate(), Path.of(base).toAbsolutePath());
    }

    /**
     * Starts a plane like {@link #start()} whose API server also serves real kubelets ({@link RealNode}): see
     * {@link KubeletAccess#REAL_KUBELET}.
     */
    public static LocalControlPlane startForRealKubelet() {
        // A directory of its own: the work dir is named after the JVM, and the shared plane of the same JVM
        // (ControlPlaneExtension) must keep its certificates and kubeconfig.
        Path base = Path.of(System.getProperty(WORK_DIR_PROPERTY, "target"), "real-kubelet-plane");
        return start(ControlPlaneBinaries.locate(), base.toAbsolutePath(), KubeletAccess.REAL_KUBELET);
    }

    /**
     * Starts a plane like {@link #start()} in a directory of its own ({@code <work dir>/<name>}), beside the shared
     * plane of the same JVM ({@link ControlPlaneExtension}): for a test that installs cluster-scoped objects (a Helm
     * chart) no other test may see.
     */
    public static LocalControlPlane startApart(String name) {
        Path base = Path.of(System.getProperty(WORK_DIR_PROPERTY, "target"), name);
        return start(ControlPlaneBinaries.locate(), base.toAbsolutePath());
    }

    /**
     * {@link #startApart} with privileged containers allowed, as most clusters have them: for a test of what refuses
     * them there (an admission policy), which the API server's own refusal would otherwise answer first.
     */
    public static LocalControlPlane startApartAllowingPrivileged(String name) {
        Path base = Path.of(System.getProperty(WORK_DIR_PROPERTY, "target"), name);
        return start(ControlPlaneBinaries.locate(), base.toAbsolutePath(), KubeletAccess.NONE, Privileged.ALLOWED);
    }

    /** Whether the API server accepts privileged containers ({@code --allow-privileged}). */
    private enum Privileged {
        REFUSED,
        ALLOWED
    }

    /**
     * The directory of the control-plane binaries (kubectl, helm, prometheus, ...), found or built as {@link #start()}
     * does, for a test that talks to another cluster with them.
     *
     * @throws ControlPlaneUnavailableException when this machine cannot build them (no Go)
     */
    public static Path binaries() {
        return ControlPlaneBinaries.locate();
    }

    /** Starts etcd and kube-apiserver from {@code binDir}; logs go to {@code baseDir/controlplane-logs}. */
    public static LocalControlPlane start(Path binDir, Path baseDir) {
        return start(binDir, baseDir, KubeletAccess.NONE);
    }

    /**
     * Starts etcd and kube-apiserver from {@code binDir}, set up for {@code kubeletAccess}. Two planes of one JVM
     * need different {@code baseDir}s (the work dir is named after the JVM's pid).
     */
    public static LocalControlPlane start(Path binDir, Path baseDir, KubeletAccess kubeletAccess) {
        return start(binDir, baseDir, kubeletAccess, Privileged.REFUSED);
    }

    private static LocalControlPlane start(
            Path binDir, Path baseDir, KubeletAccess kubeletAccess, Privileged privileged) {
        int reaped = StaleRuns.reap(baseDir);
        if (reaped > 0) {
            System.err.println("[controlplane] stopped " + reaped + " processes left by a test JVM that was killed");
        }
        Path workDir = baseDir.resolve(
                StaleRuns.WORK_DIR_PREFIX + ProcessHandle.current().pid());
        for (int attempt = 1; ; attempt++) {
            LocalControlPlane plane = new LocalControlPlane(
                    binDir, kubeletAccess, privileged, workDir, baseDir.resolve("controlplane-logs"));
            Runtime.getRuntime().addShutdownHook(plane.shutdownHook);
            try {
                plane.startCore();
                return plane;
            } catch (RuntimeException | Error e) {
                plane.close();
                // A probed free port can be taken by another process before the server binds it.
                if (attempt < START_ATTEMPTS && String.valueOf(e.getMessage()).contains("address already in use")) {
                    System.err.println("[controlplane] a port was taken meanwhile; starting again on new ports");
                    continue;
                }
                throw e;
            }
        }
    }

    private void startCore() {
        String openssl = executableOnPath("openssl")
                .orElseThrow(() -> new ControlPlaneUnavailableException(
                        "no 'openssl' on PATH to generate the control plane's certificates; install openssl"));
        deleteRecursively(workDir);
        deleteRecursively(logDir);
        pki = Pki.generate(workDir.resolve("pki"), openssl, SERVICE_IP, kubeletAccess.podNetworkAddresses());

        int etcdPort = FreePorts.next();
        int peerPort = FreePorts.next();
        int apiPort = FreePorts.next();
        etcdUrl = "http://127.0.0.1:" + etcdPort;
        String peerUrl = "http://127.0.0.1:" + peerPort;
        etcd = launch(
                "etcd",
                "--name=podnuma",
                "--data-dir=" + workDir.resolve("etcd"),
                "--listen-client-urls=" + etcdUrl,
                "--advertise-client-urls=" + etcdUrl,
                "--listen-peer-urls=" + peerUrl,
                "--initial-advertise-peer-urls=" + peerUrl,
                "--initial-cluster=podnuma=" + peerUrl,
                // Test data is thrown away; skipping fsync makes every write several times faster.
                "--unsafe-no-fsync=true",
                "--log-level=warn");
        HealthProbe.trusting(pki.caCert()).await(URI.create(etcdUrl + "/health"), etcd, ETCD_TIMEOUT);

        server = "https://127.0.0.1:" + apiPort;
        this.openssl = openssl;
        List<String> apiServerArgs = new ArrayList<>(List.of(
                "--etcd-servers=" + etcdUrl,
                // A plane for real kubelets also answers pods, on the pod network's gateway (see KubeletAccess).
                "--bind-address=" + kubeletAccess.bindAddress(),
                "--advertise-address=127.0.0.1",
                // The endpoint reconciler refuses a loopback address; nothing here routes to the apiserver
                // through the kubernetes Service anyway.
                "--endpoint-reconciler-type=none",
                "--secure-port=" + apiPort,
                "--cert-dir=" + workDir.resolve("apiserver"),
                "--tls-cert-file=" + pki.serverCert(),
                "--tls-private-key-file=" + pki.serverKey(),
                "--client-ca-file=" + pki.caCert(),
                "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
                "--service-account-key-file=" + pki.saPub(),
                "--service-account-signing-key-file=" + pki.saKey(),
                "--service-cluster-ip-range=" + SERVICE_CIDR,
                // Nothing podnuma runs is privileged (the agent's container has no capability): a pod asking for
                // privileged mode is refused, so a test cannot pass on a privileged agent.
                "--allow-privileged=" + (privileged == Privileged.ALLOWED),
                "--profiling=false"));
        apiServerArgs.addAll(kubeletAccessArgs(openssl));
        apiServer = launch("kube-apiserver", apiServerArgs.toArray(String[]::new));
        HealthProbe.trusting(pki.caCert()).await(URI.create(server + "/readyz"), apiServer, APISERVER_TIMEOUT);

        kubeconfigs = new Kubeconfigs(workDir.resolve("kubeconfig"), server, pki);
        adminKubeconfig = kubeconfigs.writeAdmin();
        admin = clientFrom(adminKubeconfig, null);
        kwokNodes = new KwokNodes(admin);
    }

    private List<String> kubeletAccessArgs(String openssl) {
        return switch (kubeletAccess) {
            // kwok runs no pod, so no pod needs a service-account token: nothing waits for a ServiceAccount. The Node
            // authorizer and NodeRestriction as on every real cluster: an agent evicts as its node, and only its pods.
            case NONE ->
                List.of(
                        "--authorization-mode=Node,RBAC",
                        "--enable-admission-plugins=NodeRestriction",
                        "--disable-admission-plugins=ServiceAccount");
            case REAL_KUBELET -> {
                // system:masters: the kubelet's webhook authorizer lets the API server proxy logs and exec.
                Pki.Issued client = pki.issue(
                        openssl,
                        workDir.resolve("pki"),
                        "apiserver-kubelet-client",
                        "/O=system:masters/CN=kube-apiserver-kubelet-client",
                        List.of(
                                "basicConstraints = critical, CA:FALSE",
                                "keyUsage = critical, digitalSignature, keyEncipherment",
                                "extendedKeyUsage = clientAuth"));
                yield List.of(
                        "--authorization-mode=Node,RBAC",
                        // ServiceAccount (on by default) mounts tokens: the kubelet fetches them for the agent pod.
                        "--enable-admission-plugins=NodeRestriction,ServiceAccount",
                        // The node's address is its hostname, which resolves to loopback here; the kubelet refuses a
                        // loopback node IP, and the API server's proxy refuses to dial one.
                        "--kubelet-preferred-address-types=Hostname",
                        "--kubelet-client-certificate=" + client.cert(),
                        "--kubelet-client-key=" + client.key(),
                        "--kubelet-certificate-authority=" + pki.caCert());
            }
        };
    }

    /** How this plane's API server treats kubelets. */
    /**
     * The namespace, and for a plane that serves real kubelets its {@code default} ServiceAccount too: the
     * ServiceAccount admission refuses a pod whose account does not exist yet, and the controller-manager makes it
     * only some time after the namespace.
     */
    @Override
    public String ensureNamespace(String name) {
        ControlPlane.super.ensureNamespace(name);
        if (kubeletAccess == KubeletAccess.REAL_KUBELET) {
            admin.serviceAccounts()
                    .inNamespace(name)
                    .resource(new io.fabric8.kubernetes.api.model.ServiceAccountBuilder()
                            .withNewMetadata()
                            .withName("default")
                            .withNamespace(name)
                            .endMetadata()
                            .build())
                    .serverSideApply();
        }
        return name;
    }

    public KubeletAccess kubeletAccess() {
        return kubeletAccess;
    }

    /**
     * Issues a certificate from this plane's CA (a real kubelet's client and serving certificates); {@code
     * extensionLines} are openssl x509v3 lines.
     */
    Pki.Issued issueCertificate(Path dir, String name, String subject, List<String> extensionLines) {
        return pki.issue(openssl, dir, name, subject, extensionLines);
    }

    Path caCert() {
        return pki.caCert();
    }

    @Override
    public KubernetesClient client() {
        return admin;
    }

    @Override
    public Path kubeconfig() {
        return adminKubeconfig;
    }

    @Override
    public Path kubeconfigFor(String namespace, String serviceAccount) {
        return kubeconfigs.writeImpersonating(namespace, serviceAccount);
    }

    @Override
    public KubernetesClient clientFor(String namespace, String serviceAccount) {
        return clientFrom(adminKubeconfig, Kubeconfigs.serviceAccountUser(namespace, serviceAccount));
    }

    @Override
    public CommandResult kubectl(String... args) {
        return kubectlWithStdin(null, args);
    }

    @Override
    public CommandResult kubectlWithStdin(String stdin, String... args) {
        List<String> command = new ArrayList<>();
        command.add(binDir.resolve("kubectl").toString());
        command.addAll(List.of(args));
        return Commands.run(
                command,
                Map.of(
                        "KUBECONFIG",
                        adminKubeconfig.toString(),
                        "KUBECACHEDIR",
                        workDir.resolve("kube-cache").toString()),
                stdin,
                Commands.DEFAULT_TIMEOUT);
    }

    @Override
    public CommandResult helm(String... args) {
        List<String> command = new ArrayList<>();
        command.add(binDir.resolve("helm").toString());
        command.addAll(List.of(args));
        Path helmHome = workDir.resolve("helm");
        return Commands.run(
                command,
                Map.of(
                        "KUBECONFIG", adminKubeconfig.toString(),
                        "HELM_CACHE_HOME", helmHome.resolve("cache").toString(),
                        "HELM_CONFIG_HOME", helmHome.resolve("config").toString(),
                        "HELM_DATA_HOME", helmHome.resolve("data").toString()),
                null,
                Commands.DEFAULT_TIMEOUT);
    }

    @Override
    public Path binDir() {
        return binDir;
    }

    @Override
    public synchronized List<String> ensureNodes(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1, was " + count);
        }
        startNodeComponents();
        return kwokNodes.ensure(count);
    }

    @Override
    public synchronized String ensureNode(String name, Map<String, String> labels, Map<String, String> allocatable) {
        startNodeComponents();
        return kwokNodes.ensure(name, labels, allocatable);
    }

    @Override
    public synchronized void startControllers() {
        startNodeComponents();
    }

    @Override
    public synchronized void stopApiServer() {
        if (closed) {
            throw new IllegalStateException("the control plane is closed");
        }
        // SIGKILL, not SIGTERM: a terminating kube-apiserver stops listening at once but keeps serving open watches
        // until it has drained them (10 s and more), which would blur when the outage starts.
        apiServer.kill();
    }

    @Override
    public synchronized void startApiServer() {
        if (closed) {
            throw new IllegalStateException("the control plane is closed; cannot start kube-apiserver");
        }
        if (apiServer.isAlive()) {
            return;
        }
        apiServer = relaunch(apiServer);
        HealthProbe.trusting(pki.caCert()).await(URI.create(server + "/readyz"), apiServer, APISERVER_TIMEOUT);
        restartNodeComponents();
    }

    /**
     * kwok, the controller-manager and the scheduler, started again after an outage: their watches are in client-go's
     * backoff by then (up to a minute between tries after a long outage), so a new node or pod would wait that long
     * for kwok; started again, they list and watch at once.
     */
    private void restartNodeComponents() {
        for (ManagedProcess p : List.copyOf(processes)) {
            if (p != apiServer && p != etcd) {
                p.kill();
                relaunch(p).requireAlive();
            }
        }
    }

    /**
     * kwok, the controller-manager and the scheduler keep nothing of their own (their state is in the API server), so
     * one that exited by itself is started again for the next test, with the reason printed, at most
     * {@link #NODE_COMPONENT_RELAUNCHES} times per control plane; after that, the next test fails with its log. kwok
     * v0.8.0 can die right after a start on a data race in its CEL set-up ("fatal error: concurrent map writes" in
     * easycel, seen in CI after a restart of the API server), which then failed every later test of the module. The
     * API server and etcd are never started behind a test's back.
     */
    private void relaunchExitedNodeComponents() {
        for (ManagedProcess p : List.copyOf(processes)) {
            if (p == apiServer || p == etcd || p.isAlive()) {
                continue;
            }
            if (nodeComponentRelaunches >= NODE_COMPONENT_RELAUNCHES) {
                p.requireAlive();
            }
            nodeComponentRelaunches++;
            System.err.printf(
                    "[controlplane] %s exited by itself with code %d (log %s); started again (%d of at most %d)%n",
                    p.name(),
                    p.exitValue(),
                    p.log().toAbsolutePath(),
                    nodeComponentRelaunches,
                    NODE_COMPONENT_RELAUNCHES);
            relaunch(p).requireAlive();
        }
    }

    private ManagedProcess relaunch(ManagedProcess stopped) {
        ManagedProcess again = stopped.again();
        processes.set(processes.indexOf(stopped), again);
        StaleRuns.record(workDir, again.handle());
        return again;
    }

    @Override
    public synchronized boolean apiServerRunning() {
        return apiServer.isAlive();
    }

    @Override
    public synchronized void stopEtcd() {
        if (closed) {
            throw new IllegalStateException("the control plane is closed");
        }
        etcd.kill();
    }

    @Override
    public synchronized void startEtcd() {
        if (closed) {
            throw new IllegalStateException("the control plane is closed; cannot start etcd");
        }
        if (etcd.isAlive()) {
            return;
        }
        etcd = relaunch(etcd);
        HealthProbe.trusting(pki.caCert()).await(URI.create(etcdUrl + "/health"), etcd, ETCD_TIMEOUT);
        if (apiServer.isAlive()) {
            // kube-apiserver reconnects by itself; ready means its storage answers again. Its watchers' did not: a pod
            // created around the outage waited for kwok's backed-off watch (FaultSoakIT saw more than 45 s).
            HealthProbe.trusting(pki.caCert()).await(URI.create(server + "/readyz"), apiServer, APISERVER_TIMEOUT);
            restartNodeComponents();
        }
    }

    @Override
    public synchronized boolean etcdRunning() {
        return etcd.isAlive();
    }

    /** The API server's URL, e.g. {@code https://127.0.0.1:41234}. */
    public String server() {
        return server;
    }

    /** The running process of one component ({@code kwok}, {@code kube-scheduler}, ...), for tests that end it. */
    synchronized ProcessHandle process(String name) {
        return processes.stream()
                .filter(p -> p.name().equals(name))
                .findFirst()
                .map(ManagedProcess::handle)
                .orElseThrow(() -> new IllegalArgumentException("no component named " + name + " runs"));
    }

    /** Where each process writes its log ({@code <name>.log}). */
    public Path logDir() {
        return logDir;
    }

    /** Prints the last {@code lines} lines of every process's log, to explain a failed test. */
    public synchronized void printLogTails(PrintStream out, int lines) {
        ManagedProcess.printLogTails(processes, out, lines);
    }

    private void startNodeComponents() {
        if (processes.stream().anyMatch(p -> p.name().equals("kwok"))) {
            apiServer.requireAlive();
            etcd.requireAlive();
            relaunchExitedNodeComponents();
            return;
        }
        HealthProbe selfSigned = HealthProbe.trustingSelfSigned();
        String kubeconfig = adminKubeconfig.toString();

        int kcmPort = FreePorts.next();
        ManagedProcess kcm = launch(
                "kube-controller-manager",
                "--kubeconfig=" + kubeconfig,
                "--authentication-kubeconfig=" + kubeconfig,
                "--authorization-kubeconfig=" + kubeconfig,
                "--leader-elect=false",
                "--bind-address=127.0.0.1",
                "--secure-port=" + kcmPort,
                "--cert-dir=" + workDir.resolve("kube-controller-manager"),
                "--root-ca-file=" + pki.caCert(),
                "--service-cluster-ip-range=" + SERVICE_CIDR,
                "--profiling=false");
        int schedulerPort = FreePorts.next();
        ManagedProcess scheduler = launch(
                "kube-scheduler",
                "--kubeconfig=" + kubeconfig,
                "--authentication-kubeconfig=" + kubeconfig,
                "--authorization-kubeconfig=" + kubeconfig,
                "--leader-elect=false",
                "--bind-address=127.0.0.1",
                "--secure-port=" + schedulerPort,
                "--cert-dir=" + workDir.resolve("kube-scheduler"),
                "--profiling=false");
        ManagedProcess kwok = launch(
                "kwok",
                "--kubeconfig=" + kubeconfig,
                "--config=" + writeKwokStages(),
                "--manage-all-nodes=false",
                "--manage-nodes-with-label-selector=" + KwokNodes.KWOK_LABEL + "=true",
                "--cidr=" + POD_CIDR);
        selfSigned.await(URI.create("https://127.0.0.1:" + kcmPort + "/healthz"), kcm, CONTROLLER_TIMEOUT);
        selfSigned.await(URI.create("https://127.0.0.1:" + schedulerPort + "/healthz"), scheduler, CONTROLLER_TIMEOUT);
        kwok.requireAlive();
    }

    private Path writeKwokStages() {
        Path file = workDir.resolve("kwok-stages.yaml");
        try (InputStream in = LocalControlPlane.class.getResourceAsStream("kwok-stages.yaml")) {
            if (in == null) {
                throw new IllegalStateException("kwok-stages.yaml is missing from the podnuma-controlplane jar");
            }
            Files.write(file, in.readAllBytes());
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private synchronized ManagedProcess launch(String tool, String... args) {
        if (closed) {
            throw new IllegalStateException("the control plane is closed; cannot start " + tool);
        }
        List<String> command = new ArrayList<>();
        command.add(binDir.resolve(tool).toString());
        command.addAll(List.of(args));
        ManagedProcess process = ManagedProcess.start(tool, command, logDir);
        processes.add(process);
        StaleRuns.record(workDir, process.handle());
        return process;
    }

    private static KubernetesClient clientFrom(Path kubeconfig, String impersonate) {
        try {
            Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
            if (impersonate != null) {
                config.setImpersonateUsername(impersonate);
            }
            return new KubernetesClientBuilder().withConfig(config).build();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + kubeconfig + ": " + e.getMessage(), e);
        }
    }

    /** Stops every process, newest first, and removes the work directory; logs stay for the post-mortem. */
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
        if (admin != null) {
            admin.close();
        }
        for (int i = toStop.size() - 1; i >= 0; i--) {
            toStop.get(i).close();
        }
        try {
            deleteRecursively(workDir);
        } catch (UncheckedIOException e) {
            System.err.println("[controlplane] " + e.getMessage());
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // we are running inside the hook
        }
    }

    private static Optional<String> executableOnPath(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate.toString());
            }
        }
        return Optional.empty();
    }

    static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir + ": " + e.getMessage(), e);
        }
    }
}
