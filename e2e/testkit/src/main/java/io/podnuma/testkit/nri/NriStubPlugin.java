package io.podnuma.testkit.nri;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podnuma.nri.v1alpha1.ContainerUpdate;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The reference plugin: {@code nriruntime stub-plugin}, a plugin on the upstream stub library that answers every
 * CreateContainer with a cpuset ({@link StubOptions}). It tests the harness (a plugin both sides of which are
 * upstream code) and shows what a conforming plugin sees: every message it gets is printed as one JSON event,
 * {@code {"event":"configure"|"synchronize"|"create-container"|...}}, kept here in order.
 *
 * <p>Like nri-plugins, it exits when the runtime closes its connection (the {@code closed} event); a test restarts
 * it by starting another.
 */
public final class NriStubPlugin implements AutoCloseable {

    private static final AtomicInteger STARTS = new AtomicInteger();

    private final JsonLinesProcess process;
    private final StubOptions options;
    private final PrintedEvents events;

    private NriStubPlugin(JsonLinesProcess process, StubOptions options) {
        this.process = process;
        this.options = options;
        this.events = new PrintedEvents(process, "the stub plugin " + options.pluginName());
    }

    /** Starts the plugin against the runtime on {@code socket}; its log is {@code nristub-<n>.log} beside it. */
    public static NriStubPlugin start(NriRuntimeBinary binary, Path socket, StubOptions options) throws IOException {
        Path absolute = socket.toAbsolutePath();
        List<String> command = Stream.concat(
                        Stream.of(binary.path().toString(), "stub-plugin", "--socket", absolute.toString()),
                        options.args().stream())
                .toList();
        Path log = absolute.resolveSibling("nristub-" + STARTS.incrementAndGet() + ".log");
        return new NriStubPlugin(JsonLinesProcess.start("nristub-" + options.pluginName(), command, log), options);
    }

    public StubOptions options() {
        return options;
    }

    /** {@code <index>-<name>}, as the runtime lists it. */
    public String pluginName() {
        return options.pluginName();
    }

    public Path log() {
        return process.log();
    }

    /**
     * The first event named {@code event} that {@code where} accepts, in the order the plugin printed them (earlier
     * events included), waiting up to {@code timeout} for it.
     */
    public synchronized JsonNode awaitEvent(String event, Predicate<JsonNode> where, Duration timeout)
            throws InterruptedException {
        return events.await(0, event, where, timeout);
    }

    /** The first {@code event} event, as {@link #awaitEvent(String, Predicate, Duration)}. */
    public JsonNode awaitEvent(String event, Duration timeout) throws InterruptedException {
        return awaitEvent(event, e -> true, timeout);
    }

    /** Every event so far. */
    public synchronized List<JsonNode> events() throws InterruptedException {
        return events.all();
    }

    /**
     * Sends the runtime an unsolicited {@code UpdateContainers} with {@code updates} ({@code ContainerUpdate}s) and
     * returns the plugin's record of the answer: {@code {"event":"update-containers","failed":[...],"error":""}}.
     */
    public synchronized JsonNode updateContainers(List<ContainerUpdate> updates, Duration timeout)
            throws InterruptedException {
        events.pump(Duration.ZERO);
        int from = events.size();
        ObjectNode command = NriJson.MAPPER.createObjectNode().put("op", "update-containers");
        ArrayNode list = command.putArray("updates");
        updates.forEach(u -> list.add(NriJson.tree(u)));
        process.send(command.toString());
        return events.await(from, "update-containers", e -> true, timeout);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The exit code once the plugin has exited within {@code timeout}. */
    public Optional<Integer> awaitExit(Duration timeout) throws InterruptedException {
        return process.awaitExit(timeout);
    }

    /** SIGKILL: the runtime sees the connection drop with no goodbye. */
    public void kill() throws InterruptedException {
        process.kill();
    }

    /** Closes its stdin (the plugin stops and exits), SIGKILL if it lingers. */
    @Override
    public void close() {
        process.close();
    }
}
