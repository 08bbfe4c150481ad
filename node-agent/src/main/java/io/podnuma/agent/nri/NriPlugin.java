package io.podnuma.agent.nri;

import io.podnuma.nri.v1alpha1.ContainerUpdate;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent as an external NRI plugin. {@link #start} returns at once; a virtual thread connects to the runtime's
 * socket, runs one {@link NriSession} at a time and, whenever the socket is absent, refuses, closes, breaks the
 * protocol or sends Shutdown, waits (exponential backoff between the settings' min and max, back to min after a
 * connection that reached SYNCED) and connects again: a restarted runtime registers us anew and re-sends its state
 * through Synchronize. States: {@link NriConnectionState}. Never call {@link #updateContainers} from inside an
 * {@link NriHandler} call.
 */
public final class NriPlugin implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NriPlugin.class);

    private final NriPluginSettings settings;
    private final NriHandler handler;
    private final NriStatsRecorder stats = new NriStatsRecorder();
    private final CountDownLatch closing = new CountDownLatch(1);
    private final Object lock = new Object();
    private volatile NriConnectionState state = NriConnectionState.CONNECTING;
    private NriSession session; // guarded by lock
    private Thread connector;

    private NriPlugin(NriPluginSettings settings, NriHandler handler) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.handler = Objects.requireNonNull(handler, "handler");
    }

    public static NriPlugin start(NriPluginSettings settings, NriHandler handler) {
        NriPlugin plugin = new NriPlugin(settings, handler);
        plugin.connector = Thread.ofVirtual().name("nri-connector").start(plugin::connectLoop);
        return plugin;
    }

    /** Whether the runtime consults us now: registered, configured and synchronised. */
    public boolean connected() {
        return state == NriConnectionState.SYNCED;
    }

    public NriConnectionState state() {
        return state;
    }

    public NriStats stats() {
        return stats.snapshot();
    }

    /**
     * Asks the runtime to update containers (unsolicited, e.g. when the shared pool changes); completes with the
     * updates it failed to apply, or fails with a {@code TtrpcException}. Fails at once when not {@link #connected()}
     * or when called from inside a handler (the runtime holds its lock while it waits for the handler).
     */
    public CompletableFuture<List<ContainerUpdate>> updateContainers(List<ContainerUpdate> updates) {
        if (PluginService.insideHandler()) {
            return CompletableFuture.failedFuture(new IllegalStateException(
                    "UpdateContainers from inside an NRI handler would deadlock the runtime: return the updates"));
        }
        NriSession current;
        synchronized (lock) {
            current = session;
        }
        if (current == null || !connected()) {
            return CompletableFuture.failedFuture(
                    new IllegalStateException("the NRI plugin is not connected (state " + state + ")"));
        }
        return current.updateContainers(List.copyOf(updates));
    }

    /** Closes the connection and stops reconnecting; waits briefly for the connector thread to end. */
    @Override
    public void close() {
        closing.countDown();
        synchronized (lock) {
            if (session != null) {
                session.close("the NRI plugin was closed");
            }
        }
        try {
            if (connector != null) {
                connector.join(java.time.Duration.ofSeconds(5));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        state = NriConnectionState.CLOSED;
    }

    private void connectLoop() {
        Backoff backoff = Backoff.start(settings.reconnectMin(), settings.reconnectMax());
        String lastProblem = null;
        while (!isClosing()) {
            state = NriConnectionState.CONNECTING;
            SocketChannel channel;
            try {
                channel = SocketChannel.open(StandardProtocolFamily.UNIX);
                try {
                    channel.connect(UnixDomainSocketAddress.of(settings.socket()));
                } catch (IOException e) {
                    channel.close();
                    throw e;
                }
            } catch (IOException e) {
                stats.connectFailed();
                String problem = "cannot connect to the NRI socket " + settings.socket() + ": " + e.getMessage();
                if (!problem.equals(lastProblem)) {
                    LOG.info(
                            "NRI: {}; retrying every {} to {} ms",
                            problem,
                            settings.reconnectMin().toMillis(),
                            settings.reconnectMax().toMillis());
                } else {
                    LOG.debug("NRI: {}", problem);
                }
                lastProblem = problem;
                backoff = pause(backoff);
                continue;
            }
            lastProblem = null;
            NriSession current = new NriSession(channel, settings, handler, stats, s -> state = s);
            synchronized (lock) {
                if (isClosing()) {
                    current.close("the NRI plugin was closed");
                    closeQuietly(channel);
                    break;
                }
                session = current;
            }
            stats.connected();
            LOG.info("NRI: connected to {}", settings.socket());
            String reason = current.run();
            synchronized (lock) {
                session = null;
            }
            if (isClosing()) {
                break;
            }
            LOG.info("NRI: connection closed: {}", reason);
            try {
                handler.disconnected(reason);
            } catch (RuntimeException e) {
                LOG.warn("NRI: the handler failed on disconnect: {}", e.toString());
            }
            if (current.synced()) {
                backoff = backoff.reset();
            }
            backoff = pause(backoff);
        }
        state = NriConnectionState.CLOSED;
    }

    private Backoff pause(Backoff backoff) {
        state = NriConnectionState.BACKING_OFF;
        try {
            closing.await(backoff.delay().toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closing.countDown();
        }
        return backoff.next();
    }

    private boolean isClosing() {
        return closing.getCount() == 0;
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            LOG.debug("NRI: closing a socket: {}", e.toString());
        }
    }
}
