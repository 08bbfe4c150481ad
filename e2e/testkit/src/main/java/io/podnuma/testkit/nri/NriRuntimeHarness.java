package io.podnuma.testkit.nri;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Message;
import io.podnuma.nri.v1alpha1.Container;
import io.podnuma.nri.v1alpha1.ContainerUpdate;
import io.podnuma.nri.v1alpha1.CreateContainerResponse;
import io.podnuma.nri.v1alpha1.Empty;
import io.podnuma.nri.v1alpha1.LinuxResources;
import io.podnuma.nri.v1alpha1.PodSandbox;
import io.podnuma.nri.v1alpha1.StopContainerResponse;
import io.podnuma.nri.v1alpha1.UpdateContainerResponse;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A container runtime's NRI side for tests: {@code nriruntime serve}, the upstream adaptation library (the code
 * containerd and CRI-O embed) listening on a socket, driven event by event from here. Plugins connect to
 * {@link #socket()}, register, are configured and synchronized with the harness's pods and containers; each call here
 * is one runtime event relayed to them, answered with the merged response and how long it took.
 *
 * <p>The harness keeps the state a runtime keeps: pods added or run, containers added or created (with the cpuset
 * the plugins' adjustment and updates set), so a plugin that reconnects is synchronized with what it pinned
 * ({@link #state()} shows it). Messages are the typed {@code io.podnuma.nri.v1alpha1} ones, protobuf JSON on the
 * harness's pipes ({@link NriJson}). Calls are one at a time, like the runtime's own lock around every event.
 */
public final class NriRuntimeHarness implements AutoCloseable {

    /** How long an answer may take beyond the adaptation's own timeouts before the harness counts as hung. */
    private static final Duration ANSWER_SLACK = Duration.ofSeconds(30);

    private final JsonLinesProcess process;
    private final Path socket;
    private final HarnessOptions options;

    private NriRuntimeHarness(JsonLinesProcess process, Path socket, HarnessOptions options) {
        this.process = process;
        this.socket = socket;
        this.options = options;
    }

    /** Why the harness cannot be built here (no Go 1.26+), if it cannot. */
    public static Optional<String> whyUnavailable() {
        return NriRuntimeBinary.whyUnavailable();
    }

    /** Builds the harness (and the stub plugin, the same binary) into {@code outDir}. */
    public static NriRuntimeBinary build(Path outDir) throws IOException {
        return NriRuntimeBinary.build(outDir);
    }

    /**
     * For a test class's {@code @BeforeAll}: {@link #build}, printing how long it took, or where the harness cannot be
     * built, skips the whole class, printing why.
     */
    public static NriRuntimeBinary buildForTest(Path outDir, Class<?> test) throws IOException {
        Optional<String> why = whyUnavailable();
        if (why.isPresent()) {
            String reason = "skipped: " + why.get();
            System.out.println(test.getSimpleName() + " " + reason);
            Assumptions.abort(reason);
        }
        long t0 = System.nanoTime();
        NriRuntimeBinary binary = build(outDir);
        System.out.printf(
                "%s: go build of nriruntime took %d ms%n", test.getSimpleName(), (System.nanoTime() - t0) / 1_000_000);
        return binary;
    }

    /** A runtime on {@code socket} with containerd's defaults but {@code requestTimeout}. */
    public static NriRuntimeHarness start(NriRuntimeBinary binary, Path socket, Duration requestTimeout)
            throws IOException, InterruptedException {
        return start(binary, socket, HarnessOptions.CONTAINERD_DEFAULTS.withRequestTimeout(requestTimeout));
    }

    /**
     * A runtime listening on {@code socket} (its directory is created; its log is {@code nriruntime.log} beside it),
     * returned once it answers.
     */
    public static NriRuntimeHarness start(NriRuntimeBinary binary, Path socket, HarnessOptions options)
            throws IOException, InterruptedException {
        Path absolute = socket.toAbsolutePath();
        List<String> command = Stream.concat(
                        Stream.of(binary.path().toString(), "serve", "--socket", absolute.toString()),
                        options.args().stream())
                .toList();
        JsonLinesProcess process =
                JsonLinesProcess.start("nriruntime", command, absolute.resolveSibling("nriruntime.log"));
        NriRuntimeHarness harness = new NriRuntimeHarness(process, absolute, options);
        harness.registrations(); // the first answer: listening
        return harness;
    }

    public Path socket() {
        return socket;
    }

    public HarnessOptions options() {
        return options;
    }

    /** The runtime's log (the adaptation's messages). */
    public Path log() {
        return process.log();
    }

    public String logTail() {
        return process.logTail();
    }

    /**
     * Waits until at least {@code atLeast} plugins are connected, none of {@code without} is, and at least
     * {@code registrations} plugin syncs have succeeded since the start; what there is either way.
     */
    public PluginsSeen awaitPlugins(int atLeast, int registrations, List<String> without, Duration timeout)
            throws InterruptedException {
        ObjectNode c = op("await-plugins")
                .put("count", atLeast)
                .put("registrations", registrations)
                .put("timeoutMs", Math.max(1, timeout.toMillis()));
        ArrayNode w = c.putArray("without");
        without.forEach(w::add);
        JsonNode a = call(c, timeout.plus(ANSWER_SLACK));
        List<String> connected = new ArrayList<>();
        a.path("plugins").forEach(p -> connected.add(p.asText()));
        List<PluginRegistration> regs = new ArrayList<>();
        a.path("registrations").forEach(r -> regs.add(registration(r)));
        return new PluginsSeen(a.path("ok").asBoolean(), connected, regs, error(a));
    }

    /** The connected plugins once there are at least {@code count}; an {@link AssertionError} after timeout. */
    public List<String> awaitPlugins(int count, Duration timeout) throws InterruptedException {
        return met(awaitPlugins(count, 0, List.of(), timeout)).connected();
    }

    /** Every registration once {@code succeeded} plugin syncs have succeeded since the start. */
    public List<PluginRegistration> awaitRegistrations(int succeeded, Duration timeout) throws InterruptedException {
        return met(awaitPlugins(0, succeeded, List.of(), timeout)).registrations();
    }

    /** Returns once {@code plugin} ({@code <index>-<name>}) is not connected; an AssertionError after timeout. */
    public void awaitDisconnected(String plugin, Duration timeout) throws InterruptedException {
        met(awaitPlugins(0, 0, List.of(plugin), timeout));
    }

    /** Every registration so far, without waiting. */
    public List<PluginRegistration> registrations() throws InterruptedException {
        return awaitPlugins(0, 0, List.of(), Duration.ofMillis(1)).registrations();
    }

    private PluginsSeen met(PluginsSeen seen) {
        if (!seen.met()) {
            throw new AssertionError("NRI harness: " + seen.error().orElse("wait not met") + "; registrations "
                    + seen.registrations() + "\n" + logTail());
        }
        return seen;
    }

    /** Adds a pod to the runtime's state (no event): later syncs list it. */
    public void addPod(PodSandbox pod) throws InterruptedException {
        stateOnly(op("add-pod").set("pod", NriJson.tree(pod)));
    }

    /** Adds a container (and its pod) to the runtime's state (no event): later syncs list it. */
    public void addContainer(PodSandbox pod, Container container) throws InterruptedException {
        stateOnly(withPodAndContainer("add-container", pod, container));
    }

    /**
     * Adds {@code count} copies of {@code template} with ids {@code <template id>-<i>} (and their pod) to the state, for
     * a sync large enough to be split.
     */
    public AddedContainers addContainers(PodSandbox pod, Container template, int count) throws InterruptedException {
        JsonNode a =
                stateOnly(withPodAndContainer("add-containers", pod, template).put("count", count));
        return new AddedContainers(
                a.path("containers").asInt(), a.path("bytesEach").asInt());
    }

    /**
     * How many containers the state has after a bulk add, and the protobuf size of one copy (what the 4 MiB ttrpc
     * message limit counts when a sync is split).
     */
    public record AddedContainers(int total, int bytesEach) {}

    public NriEventResult<Empty> runPodSandbox(PodSandbox pod) throws InterruptedException {
        return event(op("run-pod").set("pod", NriJson.tree(pod)), Empty.newBuilder());
    }

    public NriEventResult<Empty> stopPodSandbox(PodSandbox pod) throws InterruptedException {
        return event(op("stop-pod").set("pod", NriJson.tree(pod)), Empty.newBuilder());
    }

    /** RemovePodSandbox; the pod leaves the state. */
    public NriEventResult<Empty> removePodSandbox(PodSandbox pod) throws InterruptedException {
        return event(op("remove-pod").set("pod", NriJson.tree(pod)), Empty.newBuilder());
    }

    /**
     * CreateContainer: the response is the adaptation's merged {@code CreateContainerResponse}; the container joins
     * the state with the adjustment's cpuset.
     */
    public NriEventResult<CreateContainerResponse> createContainer(PodSandbox pod, Container container)
            throws InterruptedException {
        return event(withPodAndContainer("create-container", pod, container), CreateContainerResponse.newBuilder());
    }

    public NriEventResult<Empty> startContainer(PodSandbox pod, Container container) throws InterruptedException {
        return event(withPodAndContainer("start-container", pod, container), Empty.newBuilder());
    }

    /** UpdateContainer with the kubelet's new {@code LinuxResources}; the response is an UpdateContainerResponse. */
    public NriEventResult<UpdateContainerResponse> updateContainer(
            PodSandbox pod, Container container, LinuxResources linuxResources) throws InterruptedException {
        return event(
                withPodAndContainer("update-container", pod, container)
                        .set("linuxResources", NriJson.tree(linuxResources)),
                UpdateContainerResponse.newBuilder());
    }

    /** StopContainer; the response is a StopContainerResponse. */
    public NriEventResult<StopContainerResponse> stopContainer(PodSandbox pod, Container container)
            throws InterruptedException {
        return event(withPodAndContainer("stop-container", pod, container), StopContainerResponse.newBuilder());
    }

    /** RemoveContainer; the container leaves the state. */
    public NriEventResult<Empty> removeContainer(PodSandbox pod, Container container) throws InterruptedException {
        return event(withPodAndContainer("remove-container", pod, container), Empty.newBuilder());
    }

    /** The unsolicited {@code UpdateContainers} updates plugins sent since the last call (all answered "none failed"). */
    public List<ContainerUpdate> updates() throws InterruptedException {
        JsonNode a = call(op("updates"), ANSWER_SLACK);
        return updates(a.path("updates"));
    }

    /** The runtime's state now: its pods and containers (with the cpusets plugins set), sorted by id. */
    public RuntimeState state() throws InterruptedException {
        JsonNode a = stateOnly(op("state"));
        List<PodSandbox> pods = new ArrayList<>();
        a.path("pods").forEach(p -> pods.add(NriJson.parse(p, PodSandbox.newBuilder())));
        List<Container> containers = new ArrayList<>();
        a.path("containers").forEach(c -> containers.add(NriJson.parseUpstream(c, Container.newBuilder())));
        return new RuntimeState(pods, containers);
    }

    /** Sends one raw command line and returns the raw answer: for tests of the harness's own input handling. */
    JsonNode callRaw(String line) throws InterruptedException {
        synchronized (this) {
            process.send(line);
            return answer("raw " + line, ANSWER_SLACK);
        }
    }

    private <M extends Message> NriEventResult<M> event(ObjectNode command, Message.Builder response)
            throws InterruptedException {
        JsonNode a = call(command, options.requestTimeout().multipliedBy(2).plus(ANSWER_SLACK));
        Duration took = Duration.ofNanos(a.path("durationNanos").asLong());
        if (!a.path("ok").asBoolean()) {
            return new NriEventResult.Failed<>(error(a).orElse("(no error text)"), took);
        }
        return new NriEventResult.Answered<>(NriJson.parseUpstream(a.path("response"), response), took);
    }

    private JsonNode stateOnly(ObjectNode command) throws InterruptedException {
        JsonNode a = call(command, ANSWER_SLACK);
        if (!a.path("ok").asBoolean()) {
            throw new IllegalArgumentException(command.path("op").asText() + " refused: " + error(a).orElse(""));
        }
        return a;
    }

    private synchronized JsonNode call(ObjectNode command, Duration timeout) throws InterruptedException {
        process.send(command.toString());
        return answer(command.path("op").asText(), timeout);
    }

    private JsonNode answer(String what, Duration timeout) throws InterruptedException {
        return process.next(timeout)
                .orElseThrow(() -> new IllegalStateException("the NRI harness gave no answer to " + what + " within "
                        + timeout + (process.isAlive() ? "" : " (it has exited)") + ":\n" + process.logTail()));
    }

    private static ObjectNode op(String name) {
        return NriJson.MAPPER.createObjectNode().put("op", name);
    }

    private static ObjectNode withPodAndContainer(String name, PodSandbox pod, Container container) {
        ObjectNode c = op(name);
        c.set("pod", NriJson.tree(pod));
        c.set("container", NriJson.tree(container));
        return c;
    }

    private static List<ContainerUpdate> updates(JsonNode list) {
        List<ContainerUpdate> updates = new ArrayList<>();
        list.forEach(u -> updates.add(NriJson.parse(u, ContainerUpdate.newBuilder())));
        return updates;
    }

    private static Optional<String> error(JsonNode answer) {
        JsonNode e = answer.path("error");
        return e.isTextual() && !e.asText().isEmpty() ? Optional.of(e.asText()) : Optional.empty();
    }

    private static PluginRegistration registration(JsonNode r) {
        return new PluginRegistration(
                r.path("plugin").asText(),
                r.path("syncMessages").asInt(),
                r.path("oversizedAttempts").asInt(),
                r.path("pods").asInt(),
                r.path("containers").asInt(),
                updates(r.path("updates")),
                error(r));
    }

    /** Stops the adaptation ({@code Stop()}: plugins see the connection close) and waits for the process to exit. */
    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                synchronized (this) {
                    process.send(op("stop").toString());
                    process.next(Duration.ofSeconds(10));
                }
            } catch (IllegalStateException e) {
                // it went away meanwhile; close() below makes sure
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        process.close();
    }
}
