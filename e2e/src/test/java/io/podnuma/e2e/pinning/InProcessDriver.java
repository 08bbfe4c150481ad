package io.podnuma.e2e.pinning;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.podnuma.agent.config.AgentConfig;
import io.podnuma.agent.config.AgentConfigLoader;
import io.podnuma.agent.runtime.AgentDaemon;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.FreePorts;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfigYaml;
import io.podnuma.testkit.agent.AgentPlacement;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The agent in the test JVM, built from a config file by the same entry {@code node-agent run} uses
 * ({@link AgentConfigLoader} then {@link AgentDaemon#start}), with a client of its own: debuggable, and no JVM start.
 */
final class InProcessDriver extends KwokHostDriver {

    private final HttpClient http = HttpClient.newHttpClient();
    private KubernetesClient client;
    private AgentDaemon daemon;

    InProcessDriver(ControlPlane cp, Path workDir) {
        super(cp, workDir);
    }

    private AgentConfig config;

    @Override
    public void startAgent(String node, String policyName) throws Exception {
        Path dir = workDir.resolve("agent");
        AgentPlacement placement = new AgentPlacement(
                dir.resolve("state"), dir.resolve("podnuma.sock"), FreePorts.next(), FreePorts.next());
        Files.createDirectories(dir);
        Path file = dir.resolve("agent.yaml");
        NodeAgentConfigYaml.write(placement.applyTo(config(node, policyName)), file);
        config = AgentConfigLoader.load(Map.of(AgentConfigLoader.CONFIG_FLAG, file.toString()), Map.of());
        client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(cp.kubeconfig())))
                .build();
        start();
    }

    @Override
    public void restartAgent() throws Exception {
        stopAgent();
        start();
    }

    private void start() throws Exception {
        daemon = AgentDaemon.start(config, client, Optional.empty());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (get(daemon.healthPort(), "/readyz").statusCode() != 200) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the in-process agent was not ready within 60 s");
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    @Override
    public String metrics() throws Exception {
        return get(daemon.metricsPort(), "/metrics").body();
    }

    @Override
    public void stopAgent() {
        // What run's SIGTERM hook does.
        daemon.shutdown();
        daemon = null;
    }

    private HttpResponse<String> get(int port, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://" + AgentPlacement.BIND_ADDRESS + ":" + port + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() throws Exception {
        if (daemon != null) {
            daemon.close();
        }
        if (client != null) {
            client.close();
        }
        super.close();
    }
}
