package io.podnuma.agent.report.nrt;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.podnuma.agent.report.NodeStateWriter;
import io.podnuma.agent.report.WriteOutcome;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Writes one node's {@code NodeResourceTopology} by server-side apply (the whole object: it has no status
 * subresource) under the agent's field manager {@value NodeStateWriter#FIELD_MANAGER}. A rendering equal to the last
 * one written makes no request.
 *
 * <p>The CRD is optional (it comes with the NUMA-aware scheduler, not with podnuma). When it is not installed the first
 * write fails with an {@link NrtCrdMissingException} saying so; later writes return {@link WriteOutcome#SKIPPED}
 * without a request until the recheck interval has passed, and a recheck that still finds no CRD skips silently, so
 * a cluster without the scheduler costs one error and one request per interval at most.
 *
 * <p>Not thread-safe on its own; a {@link io.podnuma.agent.report.CoalescingPublisher} calls it from one thread.
 */
public final class NodeResourceTopologyWriter {

    /** How long a missing CRD is believed before the next write tries again. */
    public static final Duration DEFAULT_CRD_RECHECK = Duration.ofMinutes(5);

    private static final PatchContext APPLY = new PatchContext.Builder()
            .withPatchType(PatchType.SERVER_SIDE_APPLY)
            .withFieldManager(NodeStateWriter.FIELD_MANAGER)
            // The agent is the only rightful writer of its node's object; a hand edit is taken back.
            .withForce(true)
            .build();

    private final KubernetesClient client;
    private final String nodeName;
    private final long recheckNanos;
    private final LongSupplier nanoClock;
    private NodeResourceTopology lastWritten;
    private boolean crdMissing;
    private long crdMissingSince;

    public NodeResourceTopologyWriter(KubernetesClient client, String nodeName) {
        this(client, nodeName, DEFAULT_CRD_RECHECK, System::nanoTime);
    }

    /**
     * @param crdRecheck how long to skip writes after finding the CRD missing
     * @param nanoClock monotonic time, for tests
     */
    public NodeResourceTopologyWriter(
            KubernetesClient client, String nodeName, Duration crdRecheck, LongSupplier nanoClock) {
        this.client = Objects.requireNonNull(client, "client");
        this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
        if (crdRecheck.isNegative()) {
            throw new IllegalArgumentException("crdRecheck must be 0 or more, got " + crdRecheck);
        }
        this.recheckNanos = crdRecheck.toNanos();
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    }

    public WriteOutcome write(NodeResourceTopology desired) {
        if (!nodeName.equals(desired.nodeName())) {
            throw new IllegalArgumentException("NodeResourceTopology " + desired.nodeName()
                    + " is not this node's: the writer for node " + nodeName + " writes only " + nodeName);
        }
        if (desired.equals(lastWritten)) {
            return WriteOutcome.UNCHANGED;
        }
        long now = nanoClock.getAsLong();
        if (crdMissing && now - crdMissingSince < recheckNanos) {
            return WriteOutcome.SKIPPED;
        }
        GenericKubernetesResource object = NrtApi.toResource(desired);
        try {
            client.genericKubernetesResources(NrtApi.CONTEXT).resource(object).patch(APPLY, object);
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND && !served()) {
                boolean firstTime = !crdMissing;
                crdMissing = true;
                crdMissingSince = now;
                if (firstTime) {
                    throw new NrtCrdMissingException(
                            "NodeResourceTopology " + nodeName + " not written: the API server does not serve "
                                    + NrtApi.PLURAL + "." + NrtApi.GROUP + "/" + NrtApi.VERSION + " (CRD "
                                    + NrtApi.CRD_NAME + " is not installed). Install it with the NUMA-aware"
                                    + " scheduler, or turn the NodeResourceTopology export off; the agent tries"
                                    + " again at most every " + humanDuration(recheckNanos) + " and reports"
                                    + " nothing more until it succeeds",
                            e);
                }
                return WriteOutcome.SKIPPED;
            }
            throw new NrtWriteException(
                    "NodeResourceTopology " + nodeName + " could not be applied (HTTP " + e.getCode() + "): "
                            + e.getMessage(),
                    e);
        }
        crdMissing = false;
        lastWritten = desired;
        return WriteOutcome.WRITTEN;
    }

    /** Whether the last attempt found the CRD missing. */
    public boolean crdMissing() {
        return crdMissing;
    }

    /** Makes the next write go to the server even if unchanged (e.g. for a periodic resync). */
    public void forget() {
        lastWritten = null;
    }

    private static String humanDuration(long nanos) {
        Duration d = Duration.ofNanos(nanos);
        if (d.toSecondsPart() == 0 && d.toNanosPart() == 0 && !d.isZero()) {
            return d.toMinutes() + " min";
        }
        return d.toMillis() + " ms";
    }

    /** Discovery, asked only after a 404: an apply never 404s on an absent object, only on an absent resource. */
    private boolean served() {
        APIResourceList list;
        try {
            list = client.getApiResources(NrtApi.API_VERSION);
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                return false;
            }
            return true; // cannot tell: report the original 404 as it is
        }
        if (list == null || list.getResources() == null) {
            return false;
        }
        return list.getResources().stream().map(APIResource::getName).anyMatch(NrtApi.PLURAL::equals);
    }
}
