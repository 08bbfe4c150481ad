package io.podnuma.e2e.journey;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.podnuma.controlplane.CommandResult;
import io.podnuma.controlplane.Commands;
import io.podnuma.controlplane.ControlPlane;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.Container;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * A one-node k3s cluster in a container (Testcontainers' {@link K3sContainer}), seen as a {@link ControlPlane}: our
 * kubectl and helm with the container's kubeconfig. The node runs the kubelet with {@code cpu-manager-policy=none} (the
 * CPUs are podnuma's) and without the add-ons that ask for CPU (the scenario's pods take every allocatable CPU); the
 * images are imported into its containerd, never pulled. Only what the journey needs: no kwok nodes, no API server
 * stop, no impersonation.
 */
final class K3sCluster implements ControlPlane, AutoCloseable {

    /** Overrides the k3s image: {@code -Dpodnuma.k3s.image=rancher/k3s:v1.37.2-k3s1}. */
    static final String IMAGE_PROPERTY = "podnuma.k3s.image";

    static final String DEFAULT_IMAGE = "rancher/k3s:v1.37.2-k3s1";
    private static final String IMAGES_IN_CONTAINER = "/podnuma-images/";
    private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(3);

    private final K3sContainer container;
    private final Path binDir;
    private final Path workDir;
    private final Path kubeconfig;
    private final KubernetesClient client;

    private K3sCluster(K3sContainer container, Path binDir, Path workDir, Path kubeconfig) {
        this.container = container;
        this.binDir = binDir;
        this.workDir = workDir;
        this.kubeconfig = kubeconfig;
        this.client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(container.getKubeConfigYaml()))
                .build();
    }

    /**
     * Starts the container with {@code hostDir} bound at the same path inside (so a socket the agent serves there is
     * reachable from this JVM), imports {@code imageTars} and returns once the node is Ready.
     */
    static K3sCluster start(Path binDir, Path workDir, Path hostDir, List<Path> imageTars) throws Exception {
        Files.createDirectories(workDir);
        Files.createDirectories(hostDir);
        K3sContainer k3s = new K3sContainer(DockerImageName.parse(System.getProperty(IMAGE_PROPERTY, DEFAULT_IMAGE))
                .asCompatibleSubstituteFor("rancher/k3s"));
        List<String> command = new ArrayList<>(List.of(k3s.getCommandParts()));
        command.add("--disable=coredns,metrics-server,local-storage,servicelb");
        command.add("--kubelet-arg=cpu-manager-policy=none");
        k3s.withCommand(command.toArray(String[]::new));
        k3s.withFileSystemBind(hostDir.toString(), hostDir.toString(), BindMode.READ_WRITE);
        for (Path tar : imageTars) {
            k3s.withCopyFileToContainer(MountableFile.forHostPath(tar), IMAGES_IN_CONTAINER + tar.getFileName());
        }
        k3s.start();
        try {
            for (Path tar : imageTars) {
                exec(k3s, "k3s", "ctr", "images", "import", IMAGES_IN_CONTAINER + tar.getFileName());
            }
            Path kubeconfig = workDir.resolve("k3s.yaml");
            Files.writeString(kubeconfig, k3s.getKubeConfigYaml());
            K3sCluster cluster = new K3sCluster(k3s, binDir, workDir, kubeconfig);
            cluster.kubectl("wait", "--for=condition=Ready", "node", "--all", "--timeout=120s")
                    .assertSuccess();
            return cluster;
        } catch (Exception | Error e) {
            k3s.stop();
            throw e;
        }
    }

    /** Runs {@code command} in the container; fails with its output when it exits non-zero. */
    String exec(String... command) throws IOException, InterruptedException {
        return exec(container, command);
    }

    private static String exec(K3sContainer k3s, String... command) throws IOException, InterruptedException {
        Container.ExecResult r = k3s.execInContainer(command);
        if (r.getExitCode() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited with " + r.getExitCode() + ":\n"
                    + r.getStdout() + r.getStderr());
        }
        return r.getStdout();
    }

    @Override
    public KubernetesClient client() {
        return client;
    }

    @Override
    public Path kubeconfig() {
        return kubeconfig;
    }

    @Override
    public CommandResult kubectl(String... args) {
        return kubectlWithStdin(null, args);
    }

    @Override
    public CommandResult kubectlWithStdin(String stdin, String... args) {
        return Commands.run(
                Stream.concat(Stream.of(binDir.resolve("kubectl").toString()), Stream.of(args))
                        .toList(),
                Map.of(
                        "KUBECONFIG",
                        kubeconfig.toString(),
                        "KUBECACHEDIR",
                        workDir.resolve("kube-cache").toString()),
                stdin,
                COMMAND_TIMEOUT);
    }

    @Override
    public CommandResult helm(String... args) {
        Path home = workDir.resolve("helm");
        return Commands.run(
                Stream.concat(Stream.of(binDir.resolve("helm").toString()), Stream.of(args))
                        .toList(),
                Map.of(
                        "KUBECONFIG", kubeconfig.toString(),
                        "HELM_CACHE_HOME", home.resolve("cache").toString(),
                        "HELM_CONFIG_HOME", home.resolve("config").toString(),
                        "HELM_DATA_HOME", home.resolve("data").toString()),
                null,
                COMMAND_TIMEOUT);
    }

    @Override
    public Path binDir() {
        return binDir;
    }

    @Override
    public Path kubeconfigFor(String namespace, String serviceAccount) {
        throw unsupported("impersonation");
    }

    @Override
    public KubernetesClient clientFor(String namespace, String serviceAccount) {
        throw unsupported("impersonation");
    }

    @Override
    public List<String> ensureNodes(int count) {
        throw unsupported("kwok nodes");
    }

    @Override
    public String ensureNode(String name, Map<String, String> labels, Map<String, String> allocatable) {
        throw unsupported("kwok nodes");
    }

    @Override
    public void startControllers() {
        // k3s runs its controllers.
    }

    @Override
    public void stopApiServer() {
        throw unsupported("stopping the API server");
    }

    @Override
    public void startApiServer() {
        throw unsupported("starting the API server");
    }

    @Override
    public boolean apiServerRunning() {
        return container.isRunning();
    }

    private static UnsupportedOperationException unsupported(String what) {
        return new UnsupportedOperationException("the k3s cluster of the journey has no " + what);
    }

    @Override
    public void close() {
        client.close();
        container.stop();
    }
}
