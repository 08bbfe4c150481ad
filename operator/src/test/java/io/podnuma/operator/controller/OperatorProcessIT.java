package io.podnuma.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.controlplane.FreePorts;
import io.podnuma.controlplane.KwokNodes;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.operator.render.AgentRender;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The shaded jar as the Deployment runs it: {@code operator run --config FILE}, two replicas under the operator's
 * ServiceAccount with leader election on a Lease. Checks health, metrics, a graceful SIGTERM and the failover.
 */
@ExtendWith(ControlPlaneExtension.class)
class OperatorProcessIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static KubernetesClient admin;
    private final List<Replica> replicas = new ArrayList<>();

    record Replica(String name, Process process, int healthPort, int metricsPort, Path log) {}

    @BeforeAll
    static void prepare(ControlPlane plane) {
        admin = plane.client();
        OperatorFixture.prepare(plane).client.close();
    }

    @AfterEach
    void stop() throws InterruptedException {
        for (Replica r : replicas) {
            r.process().destroyForcibly();
            r.process().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void twoReplicasShareTheWorkThroughTheLeaseAndTheSecondTakesOverAfterASigterm(
            ControlPlane plane, @org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        plane.ensureNode("cli-0", Map.of("podnuma.it/group", "cli"), KwokNodes.DEFAULT_ALLOCATABLE);
        plane.ensureNode("cli-1", Map.of("podnuma.it/group", "cli2"), KwokNodes.DEFAULT_ALLOCATABLE);
        Path config = dir.resolve("operator.yaml");
        Files.writeString(
                config,
                "namespace: " + OperatorFixture.NAMESPACE + "\nagentImage: podnuma/node-agent:it\n"
                        + "leaseName: podnuma-operator-it\nrestoreTimeout: 20s\n");
        Path kubeconfig = plane.kubeconfigFor(OperatorFixture.NAMESPACE, OperatorFixture.SERVICE_ACCOUNT);
        Replica a = start("op-a", config, kubeconfig, dir);
        Replica b = start("op-b", config, kubeconfig, dir);

        await().atMost(TIMEOUT).ignoreExceptions().untilAsserted(() -> {
            assertThat(get(a.healthPort(), "/healthz")).isEqualTo(200);
            assertThat(get(b.healthPort(), "/healthz")).isEqualTo(200);
            assertThat(holder()).isIn("op-a", "op-b");
        });
        Replica leader = holder().equals("op-a") ? a : b;
        Replica follower = leader == a ? b : a;

        policy("cli", "cli");
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(label("cli-0")).isEqualTo("cli"));
        await().atMost(TIMEOUT).ignoreExceptions().untilAsserted(() -> {
            assertThat(get(leader.healthPort(), "/readyz")).isEqualTo(200);
            String metrics = body(leader.metricsPort(), "/metrics");
            assertThat(metrics)
                    .contains("podnuma_operator_nodes{policy=\"cli\",state=\"matched\"} 1.0")
                    .contains("operator_sdk_");
        });
        assertThat(body(follower.metricsPort(), "/metrics")).doesNotContain("podnuma_operator_nodes{");

        // A SIGTERM stops the leader gracefully; the follower takes the Lease over and reconciles.
        leader.process().destroy();
        assertThat(leader.process().waitFor(30, TimeUnit.SECONDS))
                .as("the leader stops within 30 s of SIGTERM\n" + Files.readString(leader.log()))
                .isTrue();
        policy("cli2", "cli2");
        await().atMost(TIMEOUT.plus(Duration.ofSeconds(30)))
                .untilAsserted(() -> assertThat(label("cli-1")).isEqualTo("cli2"));
        assertThat(holder()).isEqualTo(follower.name());

        admin.resources(NumaResourcePolicy.class).withName("cli").delete();
        admin.resources(NumaResourcePolicy.class).withName("cli2").delete();
        await().atMost(TIMEOUT)
                .until(() -> admin.resources(NumaResourcePolicy.class)
                                .withName("cli2")
                                .get()
                        == null);
    }

    private Replica start(String name, Path config, Path kubeconfig, Path dir) throws IOException {
        int health = FreePorts.next();
        int metrics = FreePorts.next();
        Path log = dir.resolve(name + ".log");
        ProcessBuilder pb = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-jar",
                cliJar().toString(),
                "run",
                "--config",
                config.toString(),
                "--health-port",
                Integer.toString(health),
                "--metrics-port",
                Integer.toString(metrics));
        pb.environment().put("KUBECONFIG", kubeconfig.toString());
        pb.environment().put("POD_NAME", name);
        pb.redirectErrorStream(true).redirectOutput(log.toFile());
        Replica r = new Replica(name, pb.start(), health, metrics, log);
        replicas.add(r);
        return r;
    }

    static Path cliJar() throws IOException {
        try (Stream<Path> jars = Files.list(Path.of("target"))) {
            return jars.filter(p -> p.getFileName().toString().endsWith("-cli.jar"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no target/*-cli.jar: run the package phase first"));
        }
    }

    private static void policy(String name, String group) {
        admin.resource(new NumaResourcePolicy(
                        name,
                        new NumaResourcePolicySpec(
                                new LabelSelectorBuilder()
                                        .addToMatchLabels("podnuma.it/group", group)
                                        .build(),
                                0,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null)))
                .create();
    }

    private static String label(String node) {
        return admin.nodes().withName(node).get().getMetadata().getLabels().get(AgentRender.POLICY_LABEL);
    }

    private static String holder() {
        Lease lease = admin.leases()
                .inNamespace(OperatorFixture.NAMESPACE)
                .withName("podnuma-operator-it")
                .get();
        return lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    }

    private static int get(int port, String path) throws Exception {
        return HTTP.send(request(port, path), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private static String body(int port, String path) throws Exception {
        return HTTP.send(request(port, path), HttpResponse.BodyHandlers.ofString())
                .body();
    }

    private static HttpRequest request(int port, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5))
                .build();
    }
}
