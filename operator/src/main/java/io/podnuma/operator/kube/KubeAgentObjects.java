package io.podnuma.operator.kube;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.operator.reconcile.AgentObject;
import io.podnuma.operator.reconcile.AgentObjects;
import io.podnuma.operator.reconcile.Applied;
import io.podnuma.operator.render.AgentRender;
import io.podnuma.operator.render.RenderedAgent;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Server-side apply of a policy's agent objects, each skipped when the cached copy carries the {@link AppliedHash} of
 * what would be applied. Each object is owned by its policy (a namespaced object may have a cluster-scoped owner), so
 * the garbage collector removes what the finalizer missed.
 */
public final class KubeAgentObjects implements AgentObjects {

    static final String SERVICE_MONITOR_API = "monitoring.coreos.com/v1";

    private final KubernetesClient client;
    private final String namespace;
    private final InformerEventSource<ConfigMap, NumaResourcePolicy> configMaps;
    private final InformerEventSource<Service, NumaResourcePolicy> services;
    private final InformerEventSource<DaemonSet, NumaResourcePolicy> daemonSets;

    public KubeAgentObjects(
            KubernetesClient client,
            String namespace,
            InformerEventSource<ConfigMap, NumaResourcePolicy> configMaps,
            InformerEventSource<Service, NumaResourcePolicy> services,
            InformerEventSource<DaemonSet, NumaResourcePolicy> daemonSets) {
        this.client = client;
        this.namespace = namespace;
        this.configMaps = configMaps;
        this.services = services;
        this.daemonSets = daemonSets;
    }

    @Override
    public Applied apply(NumaResourcePolicy owner, RenderedAgent rendered, boolean serviceMonitor) {
        ResourceID primary = ResourceID.fromResource(owner);
        Set<AgentObject> written = EnumSet.noneOf(AgentObject.class);
        if (applyCached(owner, primary, rendered.configMap(), configMaps)) {
            written.add(AgentObject.CONFIG_MAP);
        }
        if (applyCached(owner, primary, rendered.service(), services)) {
            written.add(AgentObject.SERVICE);
        }
        Optional<DaemonSet> before = cached(daemonSets, rendered.daemonSet());
        Optional<DaemonSet> after = Optional.empty();
        DaemonSet desired = stamped(owner, rendered.daemonSet());
        if (differs(before, desired)) {
            DaemonSet applied = apply(desired);
            after = Optional.of(applied);
            before.ifPresentOrElse(
                    b -> daemonSets.handleRecentResourceUpdate(primary, applied, b),
                    () -> daemonSets.handleRecentResourceCreate(primary, applied));
            written.add(AgentObject.DAEMON_SET);
        }
        if (serviceMonitor
                && rendered.serviceMonitor()
                        .map(sm -> applyServiceMonitor(owner, sm))
                        .orElseGet(() -> deleteStaleServiceMonitor(owner))) {
            written.add(AgentObject.SERVICE_MONITOR);
        }
        boolean newTemplate = after.isPresent()
                && !before.map(KubeAgentObjects::templateHash).equals(Optional.of(templateHash(after.get())));
        return new Applied(written, newTemplate, after);
    }

    @Override
    public void delete(String policy) {
        String name = AgentRender.objectName(policy);
        client.apps().daemonSets().inNamespace(namespace).withName(name).delete();
        client.services().inNamespace(namespace).withName(name).delete();
        client.configMaps().inNamespace(namespace).withName(name).delete();
        if (client.hasApiGroup("monitoring.coreos.com", false)) {
            client.genericKubernetesResources(SERVICE_MONITOR_API, "ServiceMonitor")
                    .inNamespace(namespace)
                    .withName(name)
                    .delete();
        }
    }

    private <T extends HasMetadata> boolean applyCached(
            NumaResourcePolicy owner,
            ResourceID primary,
            T rendered,
            InformerEventSource<T, NumaResourcePolicy> cache) {
        Optional<T> before = cached(cache, rendered);
        T desired = stamped(owner, rendered);
        if (!differs(before, desired)) {
            return false;
        }
        T applied = apply(desired);
        before.ifPresentOrElse(
                b -> cache.handleRecentResourceUpdate(primary, applied, b),
                () -> cache.handleRecentResourceCreate(primary, applied));
        return true;
    }

    private boolean applyServiceMonitor(NumaResourcePolicy owner, GenericKubernetesResource rendered) {
        GenericKubernetesResource desired = stamped(owner, rendered);
        Optional<GenericKubernetesResource> before =
                Optional.ofNullable(client.genericKubernetesResources(SERVICE_MONITOR_API, "ServiceMonitor")
                        .inNamespace(namespace)
                        .withName(rendered.getMetadata().getName())
                        .get());
        if (!differs(before, desired)) {
            return false;
        }
        apply(desired);
        return true;
    }

    /**
     * The settings no longer ask for a ServiceMonitor (the chart moved to a PodMonitor): the one this policy got
     * before would scrape the agents twice, so it goes now rather than with the policy.
     */
    private boolean deleteStaleServiceMonitor(NumaResourcePolicy owner) {
        var monitor = client.genericKubernetesResources(SERVICE_MONITOR_API, "ServiceMonitor")
                .inNamespace(namespace)
                .withName(AgentRender.objectName(owner.getMetadata().getName()));
        GenericKubernetesResource current = monitor.get();
        boolean ours = current != null
                && current.getMetadata().getOwnerReferences().stream()
                        .anyMatch(r ->
                                Objects.equals(r.getUid(), owner.getMetadata().getUid()));
        if (ours) {
            monitor.delete();
        }
        return ours;
    }

    private <T extends HasMetadata> Optional<T> cached(InformerEventSource<T, NumaResourcePolicy> cache, T rendered) {
        return cache.get(new ResourceID(rendered.getMetadata().getName(), namespace));
    }

    private static boolean differs(Optional<? extends HasMetadata> before, HasMetadata desired) {
        return before.flatMap(AppliedHash::on)
                .map(h -> !h.equals(AppliedHash.on(desired).orElseThrow()))
                .orElse(true);
    }

    private <T extends HasMetadata> T apply(T desired) {
        return client.resource(desired)
                .fieldManager(FieldManager.NAME)
                .forceConflicts()
                .serverSideApply();
    }

    /** A copy owned by the policy and carrying the hash of itself. */
    static <T extends HasMetadata> T stamped(NumaResourcePolicy owner, T rendered) {
        T copy = new io.fabric8.kubernetes.client.utils.KubernetesSerialization().clone(rendered);
        copy.getMetadata()
                .setOwnerReferences(List.of(new OwnerReferenceBuilder()
                        .withApiVersion(owner.getApiVersion())
                        .withKind(owner.getKind())
                        .withName(owner.getMetadata().getName())
                        .withUid(owner.getMetadata().getUid())
                        .withController(true)
                        .build()));
        Map<String, String> annotations =
                new HashMap<>(Objects.requireNonNullElse(copy.getMetadata().getAnnotations(), Map.of()));
        annotations.remove(AppliedHash.ANNOTATION);
        copy.getMetadata().setAnnotations(annotations.isEmpty() ? null : annotations);
        String hash = AppliedHash.of(copy);
        annotations.put(AppliedHash.ANNOTATION, hash);
        copy.getMetadata().setAnnotations(annotations);
        return copy;
    }

    private static String templateHash(DaemonSet ds) {
        Map<String, String> a = ds.getSpec().getTemplate().getMetadata().getAnnotations();
        return a == null ? "" : Objects.requireNonNullElse(a.get(AgentRender.CONFIG_HASH_ANNOTATION), "");
    }
}
