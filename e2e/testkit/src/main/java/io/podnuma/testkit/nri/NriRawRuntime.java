package io.podnuma.testkit.nri;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A "runtime" that speaks no NRI, for a plugin's transport tests: {@code nriruntime raw-runtime} listens on the
 * socket, accepts one plugin connection, waits for its first frame (its RegisterPlugin), writes the given bytes
 * as they are (a truncated mux frame, a frame on an unknown conn, a ttrpc frame with a bad length or type, a request
 * for a method nobody serves), reads the plugin's answer for {@code replyWait}, then closes and removes the socket.
 * It prints {@code {"event":"accepted"|"sent"|"frame"|"ttrpc"|"closed"}}; a {@code ttrpc} event is a decoded frame the
 * plugin sent on conn 1 ({@code stream}, {@code type}, and for a Response its status {@code code} and
 * {@code message}).
 */
public final class NriRawRuntime implements AutoCloseable {

    private static final AtomicInteger STARTS = new AtomicInteger();

    private final JsonLinesProcess process;
    private final PrintedEvents events;

    private NriRawRuntime(JsonLinesProcess process) {
        this.process = process;
        this.events = new PrintedEvents(process, "the raw runtime");
    }

    /** Listens on {@code socket} (returned once it does); its log is {@code nriraw-<n>.log} beside it. */
    public static NriRawRuntime start(NriRuntimeBinary binary, Path socket, byte[] send, Duration replyWait)
            throws IOException, InterruptedException {
        Path absolute = socket.toAbsolutePath();
        List<String> command = List.of(
                binary.path().toString(),
                "raw-runtime",
                "--socket",
                absolute.toString(),
                "--send",
                HexFormat.of().formatHex(send),
                "--reply-wait",
                replyWait.toMillis() + "ms");
        Path log = absolute.resolveSibling("nriraw-" + STARTS.incrementAndGet() + ".log");
        NriRawRuntime raw = new NriRawRuntime(JsonLinesProcess.start("nriraw", command, log));
        raw.awaitEvent("listening", Duration.ofSeconds(10));
        return raw;
    }

    /** The first event named {@code event} (earlier ones included), waiting up to {@code timeout}. */
    public synchronized JsonNode awaitEvent(String event, Duration timeout) throws InterruptedException {
        return events.await(0, event, e -> true, timeout);
    }

    /** Every event so far. */
    public synchronized List<JsonNode> events() throws InterruptedException {
        return events.all();
    }

    /** The exit code once it has exited (it does after closing the connection) within {@code timeout}. */
    public Optional<Integer> awaitExit(Duration timeout) throws InterruptedException {
        return process.awaitExit(timeout);
    }

    public String logTail() {
        return process.logTail();
    }

    @Override
    public void close() {
        process.close();
    }
}
