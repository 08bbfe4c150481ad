package io.podnuma.testkit.nri;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.podnuma.nri.v1alpha1.Container;
import io.podnuma.nri.v1alpha1.ContainerUpdate;
import io.podnuma.nri.v1alpha1.CreateContainerResponse;
import io.podnuma.nri.v1alpha1.LinuxCPU;
import io.podnuma.nri.v1alpha1.LinuxContainerUpdate;
import io.podnuma.nri.v1alpha1.LinuxResources;
import io.podnuma.nri.v1alpha1.PodSandbox;
import io.podnuma.testkit.nri.NriEventResult.Answered;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness against the upstream stub plugin: both ends are upstream NRI code (v0.12.3), so what passes here is
 * what the adaptation does, and the harness's own plumbing (state, plugin tracking, timings) is checked against it.
 */
class NriRuntimeHarnessIT {

    private static final Path BASEDIR =
            Path.of(System.getProperty("basedir", ".")).toAbsolutePath();
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String STUB = "90-gostub";

    private static NriRuntimeBinary binary;

    @TempDir
    Path dir;

    private final PodSandbox pod = NriMessages.pod("pod-1", "default", "web", "0b6a4c7e-1111-4a2b-9c3d-5e6f7a8b9c0d");
    private final Container app = NriMessages.container("ctr-app", "pod-1", "app");

    @BeforeAll
    static void buildHarness() throws Exception {
        binary = NriRuntimeHarness.buildForTest(BASEDIR.resolve("target/nriruntime"), NriRuntimeHarnessIT.class);
    }

    @Test
    void registersConfiguresAndAnswersCreateContainerWithTheStubsCpuset() throws Exception {
        try (NriRuntimeHarness runtime =
                        NriRuntimeHarness.start(binary, dir.resolve("nri.sock"), Duration.ofSeconds(2));
                NriStubPlugin stub = NriStubPlugin.start(binary, runtime.socket(), StubOptions.answering("2-3", "0"))) {
            assertThat(runtime.awaitPlugins(1, WAIT)).containsExactly(STUB);
            JsonNode configure = stub.awaitEvent("configure", WAIT);
            assertThat(configure.path("runtime").asText()).isEqualTo("containerd");
            assertThat(configure.path("version").asText()).isEqualTo("v2.4.2");
            assertThat(configure.path("requestTimeoutMs").asLong()).isEqualTo(2000);
            assertThat(configure.path("registrationTimeoutMs").asLong()).isEqualTo(5000);
            assertThat(runtime.registrations()).singleElement().satisfies(r -> {
                assertThat(r.plugin()).isEqualTo(STUB);
                assertThat(r.syncMessages()).isEqualTo(1);
                assertThat(r.succeeded()).isTrue();
            });

            runtime.addPod(pod);
            Answered<CreateContainerResponse> created =
                    runtime.createContainer(pod, app).answered();

            CreateContainerResponse rsp = created.response();
            assertThat(rsp.getAdjust().getLinux().getResources().getCpu())
                    .as("the stub set only the cpuset")
                    .isEqualTo(LinuxCPU.newBuilder().setCpus("2-3").setMems("0").build());
            assertThat(rsp.getUpdateList()).as("no updates of other containers").isEmpty();
            assertThat(stub.awaitEvent("create-container", WAIT)
                            .path("container")
                            .asText())
                    .isEqualTo("ctr-app");
            assertThat(created.took()).isLessThan(Duration.ofSeconds(1));

            int n = 200;
            long[] nanos = new long[n];
            for (int i = 0; i < n; i++) {
                nanos[i] = runtime.createContainer(pod, NriMessages.container("ctr-" + i, "pod-1", "c" + i))
                        .answered()
                        .took()
                        .toNanos();
            }
            Arrays.sort(nanos);
            System.out.printf(
                    "NriRuntimeHarnessIT: CreateContainer through the adaptation to the Go stub, %d calls: p50 %.2f ms,"
                            + " p99 %.2f ms, max %.2f ms%n",
                    n, nanos[n / 2] / 1e6, nanos[n * 99 / 100] / 1e6, nanos[n - 1] / 1e6);
            assertThat(nanos[n * 99 / 100]).isLessThan(Duration.ofSeconds(1).toNanos());
        }
    }

    @Test
    void everyContainerAndPodEventReachesThePlugin() throws Exception {
        try (NriRuntimeHarness runtime =
                        NriRuntimeHarness.start(binary, dir.resolve("nri.sock"), Duration.ofSeconds(2));
                NriStubPlugin stub = NriStubPlugin.start(binary, runtime.socket(), StubOptions.answering("1", "0"))) {
            runtime.awaitPlugins(1, WAIT);
            record Step(String event, Event call) {}
            LinuxResources resources = LinuxResources.newBuilder()
                    .setCpu(LinuxCPU.newBuilder().setCpus("0-3"))
                    .build();
            List<Step> steps = List.of(
                    new Step("run-pod", () -> runtime.runPodSandbox(pod)),
                    new Step("create-container", () -> runtime.createContainer(pod, app)),
                    new Step("start-container", () -> runtime.startContainer(pod, app)),
                    new Step("update-container", () -> runtime.updateContainer(pod, app, resources)),
                    new Step("stop-container", () -> runtime.stopContainer(pod, app)),
                    new Step("remove-container", () -> runtime.removeContainer(pod, app)),
                    new Step("stop-pod", () -> runtime.stopPodSandbox(pod)),
                    new Step("remove-pod", () -> runtime.removePodSandbox(pod)));
            for (Step step : steps) {
                step.call().run().answered();
                JsonNode seen = stub.awaitEvent(step.event(), WAIT);
                assertThat(seen.path("pod").asText()).as(step.event()).isEqualTo("pod-1");
            }
            List<String> order = stub.events().stream()
                    .map(e -> e.path("event").asText())
                    .filter(e -> !e.equals("configure") && !e.equals("synchronize"))
                    .toList();
            assertThat(order)
                    .containsExactlyElementsOf(steps.stream().map(Step::event).toList());
        }
    }

    @FunctionalInterface
    interface Event {
        NriEventResult<?> run() throws Exception;
    }

    @Test
    void unsolicitedUpdatesAreRecordedAppliedAndDrained() throws Exception {
        try (NriRuntimeHarness runtime =
                        NriRuntimeHarness.start(binary, dir.resolve("nri.sock"), Duration.ofSeconds(2));
                NriStubPlugin stub = NriStubPlugin.start(binary, runtime.socket(), StubOptions.answering("1", "0"))) {
            runtime.awaitPlugins(1, WAIT);
            runtime.createContainer(pod, app).answered();
            ContainerUpdate update = ContainerUpdate.newBuilder()
                    .setContainerId("ctr-app")
                    .setLinux(LinuxContainerUpdate.newBuilder()
                            .setResources(LinuxResources.newBuilder()
                                    .setCpu(LinuxCPU.newBuilder().setCpus("4-5"))))
                    .build();

            JsonNode answer = stub.updateContainers(List.of(update), WAIT);

            assertThat(answer.path("error").asText()).isEmpty();
            assertThat(answer.path("failed")).isEmpty();
            assertThat(runtime.updates()).containsExactly(update);
            assertThat(runtime.updates()).as("drained by the first read").isEmpty();

            // The state took the update: a plugin connecting now is synchronized with cpus 4-5.
            assertThat(runtime.state()
                            .container("ctr-app")
                            .orElseThrow()
                            .getLinux()
                            .getResources()
                            .getCpu()
                            .getCpus())
                    .isEqualTo("4-5");
            try (NriStubPlugin second = NriStubPlugin.start(
                    binary, runtime.socket(), new StubOptions("80", "second", "1", "0", Duration.ZERO))) {
                JsonNode sync = second.awaitEvent("synchronize", WAIT);
                assertThat(containers(sync)).containsExactly("ctr-app cpus=4-5 mems=0");
            }
        }
    }

    @Test
    void aRestartedPluginReregistersAndItsSyncSeesTheCreatedContainer() throws Exception {
        try (NriRuntimeHarness runtime =
                NriRuntimeHarness.start(binary, dir.resolve("nri.sock"), Duration.ofSeconds(2))) {
            try (NriStubPlugin first =
                    NriStubPlugin.start(binary, runtime.socket(), StubOptions.answering("2-3", "0"))) {
                runtime.awaitPlugins(1, WAIT);
                assertThat(containers(first.awaitEvent("synchronize", WAIT))).isEmpty();
                runtime.createContainer(pod, app).answered();
                first.kill();
            }
            runtime.awaitDisconnected(STUB, WAIT);

            long t0 = System.nanoTime();
            try (NriStubPlugin second =
                    NriStubPlugin.start(binary, runtime.socket(), StubOptions.answering("2-3", "0"))) {
                List<PluginRegistration> regs = runtime.awaitRegistrations(2, WAIT);
                Duration reregistered = Duration.ofNanos(System.nanoTime() - t0);
                assertThat(regs).extracting(PluginRegistration::plugin).containsExactly(STUB, STUB);
                assertThat(regs.get(1).pods()).isEqualTo(1);
                assertThat(regs.get(1).containers()).isEqualTo(1);
                JsonNode sync = second.awaitEvent("synchronize", WAIT);
                assertThat(sync.path("pods").get(0).asText()).isEqualTo("pod-1");
                assertThat(containers(sync)).containsExactly("ctr-app cpus=2-3 mems=0");
                assertThat(runtime.awaitPlugins(1, WAIT)).containsExactly(STUB);
                System.out.printf(
                        "NriRuntimeHarnessIT: stub restarted, re-registered and synchronized in %d ms%n",
                        reregistered.toMillis());
            }
        }
    }

    @Test
    void aPluginSlowerThanTheRequestTimeoutIsDroppedAndTheContainerCreatedUnadjusted() throws Exception {
        Duration requestTimeout = Duration.ofSeconds(1);
        try (NriRuntimeHarness runtime = NriRuntimeHarness.start(binary, dir.resolve("nri.sock"), requestTimeout);
                NriStubPlugin slow = NriStubPlugin.start(
                        binary,
                        runtime.socket(),
                        StubOptions.answering("2-3", "0").withDelay(Duration.ofSeconds(3)))) {
            runtime.awaitPlugins(1, WAIT);

            Answered<CreateContainerResponse> created =
                    runtime.createContainer(pod, app).answered();

            assertThat(created.response()
                            .getAdjust()
                            .getLinux()
                            .getResources()
                            .getCpu()
                            .getCpus())
                    .as("fail-open: created as if the plugin had answered nothing")
                    .isEmpty();
            assertThat(created.took()).isBetween(requestTimeout.minusMillis(50), requestTimeout.plusMillis(800));
            runtime.awaitDisconnected(STUB, WAIT);
            JsonNode closed = slow.awaitEvent("closed", WAIT);
            assertThat(slow.awaitExit(WAIT)).contains(0);
            assertThat(runtime.logTail()).contains("context deadline exceeded");
            System.out.printf(
                    "NriRuntimeHarnessIT: slow plugin (3 s) against a %d ms request timeout: CreateContainer returned"
                            + " after %d ms with no adjustment, plugin dropped (it saw: %s)%n",
                    requestTimeout.toMillis(),
                    created.took().toMillis(),
                    closed.path("error").asText());
        }
    }

    @Test
    void aLargeStateIsSynchronizedInSeveralMessages() throws Exception {
        try (NriRuntimeHarness runtime =
                NriRuntimeHarness.start(binary, dir.resolve("nri.sock"), Duration.ofSeconds(2))) {
            int pods = 100;
            int perPod = 100;
            int bytesEach = 0;
            for (int i = 0; i < pods; i++) {
                String podId = "pod-%03d".formatted(i);
                bytesEach = runtime.addContainers(
                                NriMessages.pod(podId, "default", "bulk-" + i, "uid-" + i),
                                NriMessages.containerdSized("ctr-%03d".formatted(i), podId, "app"),
                                perPod)
                        .bytesEach();
            }
            try (NriStubPlugin stub = NriStubPlugin.start(binary, runtime.socket(), StubOptions.answering("1", "0"))) {
                PluginRegistration reg = runtime.awaitRegistrations(1, WAIT).get(0);
                assertThat(reg.succeeded()).isTrue();
                assertThat(reg.containers()).isEqualTo(pods * perPod);
                assertThat(reg.oversizedAttempts()).isPositive();
                assertThat(reg.syncMessages()).isGreaterThan(1);
                JsonNode sync = stub.awaitEvent("synchronize", WAIT);
                assertThat(sync.path("containers").size()).isEqualTo(pods * perPod);
                assertThat(sync.path("pods").size()).isEqualTo(pods);
                System.out.printf(
                        "NriRuntimeHarnessIT: %d pods, %d containers of %d bytes: %d oversized attempt(s), then %d sync"
                                + " messages%n",
                        pods, pods * perPod, bytesEach, reg.oversizedAttempts(), reg.syncMessages());
            }
        }
    }

    /**
     * nri v0.12.3 shrinks the pods and the containers per message by the same factor, rounding down: one pod with more
     * containers than fit one message leaves 0 pods per message, and the adaptation sends empty {@code more=true}
     * messages until the request timeout, then drops the plugin. A plugin cannot help it; a runtime with few pods and
     * over ~12 000 containers (4 MiB) would hit it. When an NRI bump fixes it, this test fails: update the README.
     */
    @Test
    void aSplitSyncWithOnePodNeverEndsInNri0123() throws Exception {
        Duration requestTimeout = Duration.ofSeconds(1);
        try (NriRuntimeHarness runtime = NriRuntimeHarness.start(binary, dir.resolve("nri.sock"), requestTimeout)) {
            runtime.addContainers(pod, NriMessages.containerdSized("ctr", "pod-1", "app"), 10_000);
            try (NriStubPlugin stub = NriStubPlugin.start(binary, runtime.socket(), StubOptions.answering("1", "0"))) {
                PluginsSeen seen = runtime.awaitPlugins(0, 0, List.of(), Duration.ofMillis(1));
                List<PluginRegistration> regs = new ArrayList<>(seen.registrations());
                long deadline = System.nanoTime() + WAIT.toNanos();
                while (regs.isEmpty() && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                    regs = runtime.registrations();
                }
                assertThat(regs).singleElement().satisfies(r -> {
                    assertThat(r.error()).contains("context deadline exceeded");
                    assertThat(r.syncMessages()).isGreaterThan(100);
                });
                assertThat(stub.awaitExit(WAIT)).as("dropped, the stub exits").isPresent();
                System.out.printf(
                        "NriRuntimeHarnessIT: 1 pod, 10000 containers: %d sync messages (all but the first few empty) in %d ms, then"
                                + " dropped%n",
                        regs.get(0).syncMessages(), requestTimeout.toMillis());
            }
        }
    }

    @Test
    void unknownAndMalformedCommandsAreRefusedAndTheHarnessGoesOn() throws Exception {
        try (NriRuntimeHarness runtime =
                NriRuntimeHarness.start(binary, dir.resolve("nri.sock"), Duration.ofSeconds(2))) {
            record Case(String line, String error) {}
            for (Case c : List.of(
                    new Case("{\"op\":\"bogus\"}", "unknown op \"bogus\""),
                    new Case("not json", "malformed command"),
                    new Case("{\"op\":\"create-container\"}", "create-container: no pod"),
                    new Case("{\"op\":\"create-container\",\"pod\":{\"id\":\"p\"}}", "create-container: no container"),
                    new Case("{\"op\":\"add-pod\",\"pod\":{\"nosuchfield\":1}}", "add-pod: pod:"))) {
                JsonNode answer = runtime.callRaw(c.line());
                assertThat(answer.path("ok").asBoolean()).as(c.line()).isFalse();
                assertThat(answer.path("error").asText()).as(c.line()).contains(c.error());
            }
            assertThat(runtime.createContainer(pod, app)
                            .answered()
                            .response()
                            .getAdjust()
                            .getLinux()
                            .getResources()
                            .getCpu()
                            .getCpus())
                    .as("no plugin: nothing adjusted")
                    .isEmpty();
        }
    }

    private static List<String> containers(JsonNode sync) {
        return StreamSupport.stream(sync.path("containers").spliterator(), false)
                .map(c -> c.path("id").asText() + " cpus=" + c.path("cpus").asText() + " mems="
                        + c.path("mems").asText())
                .toList();
    }
}
