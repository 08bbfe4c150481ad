package io.podnuma.operator.kube;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.podnuma.operator.election.LeasePort;
import io.podnuma.operator.election.LeaseRead;
import io.podnuma.operator.election.LeaseRecord;
import io.podnuma.operator.election.LeaseWrite;
import io.podnuma.operator.election.StoredLease;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One {@code coordination.k8s.io/v1} Lease. Writes are PUTs carrying the resourceVersion the elector decided on, so
 * the API server refuses (409) a write to a Lease somebody changed since.
 */
public final class KubeLeases implements LeasePort {

    private final KubernetesClient client;
    private final String namespace;
    private final String name;
    /** The Lease last read or written: an update keeps its metadata (labels, annotations) and replaces the spec. */
    private final AtomicReference<Lease> last = new AtomicReference<>();

    public KubeLeases(KubernetesClient client, String namespace, String name) {
        this.client = client;
        this.namespace = namespace;
        this.name = name;
    }

    @Override
    public LeaseRead read() {
        try {
            Lease l = client.leases().inNamespace(namespace).withName(name).get();
            if (l == null) {
                return new LeaseRead.Absent();
            }
            last.set(l);
            return new LeaseRead.Found(stored(l));
        } catch (KubernetesClientException e) {
            return new LeaseRead.Failed(why(e));
        }
    }

    @Override
    public LeaseWrite create(LeaseRecord record) {
        Lease l = new LeaseBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .endMetadata()
                .build();
        l.setSpec(spec(record));
        try {
            return written(client.leases().inNamespace(namespace).resource(l).create());
        } catch (KubernetesClientException e) {
            return failed(e);
        }
    }

    @Override
    public LeaseWrite update(LeaseRecord record, String expectedVersion) {
        Lease base = last.get();
        Lease l = base != null && expectedVersion.equals(base.getMetadata().getResourceVersion())
                ? new LeaseBuilder(base).build()
                : new LeaseBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(namespace)
                        .endMetadata()
                        .build();
        l.getMetadata().setResourceVersion(expectedVersion);
        l.setSpec(spec(record));
        try {
            return written(client.leases().inNamespace(namespace).resource(l).update());
        } catch (KubernetesClientException e) {
            return failed(e);
        }
    }

    private LeaseWrite written(Lease written) {
        last.set(written);
        return new LeaseWrite.Stored(stored(written));
    }

    private static LeaseWrite failed(KubernetesClientException e) {
        return e.getCode() == 409 ? new LeaseWrite.Conflict(why(e)) : new LeaseWrite.Failed(why(e));
    }

    static StoredLease stored(Lease l) {
        LeaseSpec s = l.getSpec();
        LeaseRecord r = s == null
                ? new LeaseRecord(Optional.empty(), 0, Optional.empty(), Optional.empty(), 0)
                : new LeaseRecord(
                        Optional.ofNullable(s.getHolderIdentity()),
                        s.getLeaseDurationSeconds() == null ? 0 : s.getLeaseDurationSeconds(),
                        Optional.ofNullable(s.getAcquireTime()).map(ZonedDateTime::toInstant),
                        Optional.ofNullable(s.getRenewTime()).map(ZonedDateTime::toInstant),
                        s.getLeaseTransitions() == null ? 0 : s.getLeaseTransitions());
        return new StoredLease(r, l.getMetadata().getResourceVersion());
    }

    private static LeaseSpec spec(LeaseRecord r) {
        LeaseSpec s = new LeaseSpec();
        s.setHolderIdentity(r.holder().orElse(null));
        s.setLeaseDurationSeconds(r.leaseDurationSeconds());
        s.setAcquireTime(r.acquireTime().map(KubeLeases::micro).orElse(null));
        s.setRenewTime(r.renewTime().map(KubeLeases::micro).orElse(null));
        s.setLeaseTransitions(r.transitions());
        return s;
    }

    /** The Lease's times are MicroTime: what is written reads back equal. */
    private static ZonedDateTime micro(Instant t) {
        return ZonedDateTime.ofInstant(t.truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC);
    }

    private static String why(KubernetesClientException e) {
        return e.getCode() > 0 ? e.getCode() + " " + e.getMessage() : String.valueOf(e.getMessage());
    }
}
