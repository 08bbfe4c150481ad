package io.podnuma.agent.runtime.leave;

import io.podnuma.agent.membership.Membership;
import io.podnuma.agent.membership.NodeMembership;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the agent stops at SIGTERM: the pins stay for the next agent, unless the node has left podnuma, in which case
 * every container gets everything back and, after the stop, the node's reports are deleted. When the API server
 * cannot be asked in time the answer is "stays": keeping pins is the safe side (a rolling update keeps them too).
 */
public final class Departure {

    private static final Logger LOG = LoggerFactory.getLogger(Departure.class);

    /**
     * The client retries a refused call for a long time; the kubelet's grace period (30 s by default) is shorter.
     * Without an answer in time the pins stay, as for a rolling update. A third of that grace: a wrong "stays" leaves
     * a node that left with its pins and reports, so the question gets time enough on a loaded node, and the restore
     * after it takes milliseconds.
     */
    public static final Duration QUESTION_TIMEOUT = Duration.ofSeconds(10);

    private final NodeMembership membership;
    private final String nodeName;
    private final Duration timeout;

    public Departure(NodeMembership membership, String nodeName, Duration timeout) {
        this.membership = membership;
        this.nodeName = nodeName;
        this.timeout = timeout;
    }

    /** Asks the API server, within the timeout, whether the node has left podnuma. */
    public Shutdown decide() {
        return left() ? Shutdown.RESTORE : Shutdown.KEEP_PINS;
    }

    /** Says in the log how the agent stops. */
    public void announce(Shutdown how) {
        LOG.info(
                how == Shutdown.RESTORE
                        ? "stopping: node {} has left podnuma, giving every container everything back"
                        : "stopping: node {} stays with podnuma, the pins stay for the next agent",
                nodeName);
    }

    /** After the agent stopped: a node that left podnuma takes its reports with it. */
    public void after(Shutdown how) {
        if (how != Shutdown.RESTORE) {
            return;
        }
        try {
            membership.deleteReports();
        } catch (RuntimeException e) {
            LOG.warn("cannot delete the reports of node {}: {}", nodeName, e.getMessage());
        }
    }

    private boolean left() {
        CompletableFuture<Boolean> answer = CompletableFuture.supplyAsync(this::askedLeft);
        try {
            return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.warn("node {} could not be read within {} at shutdown; keeping the pins", nodeName, timeout);
            answer.cancel(true);
            return false;
        } catch (ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private boolean askedLeft() {
        try {
            return membership.ask() == Membership.LEFT;
        } catch (RuntimeException e) {
            LOG.warn("cannot read node {} at shutdown ({}); keeping the pins", nodeName, e.getMessage());
            return false;
        }
    }
}
