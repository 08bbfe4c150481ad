package io.podnuma.agent.pods;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.EphemeralContainer;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;

/**
 * The parts of a pod the agent never reads, skipped while the API server's JSON is read, so that neither the informer
 * cache nor the class loader pays for them.
 *
 * <p>Every pod the API server sends carries its {@code managedFields} (a nested map of every field each manager set:
 * often the largest part of the object), its volumes (the service account's projected token volume at least), probes,
 * environment, tolerations and conditions. None of them bears on CPUs, memory or containers' identities. Reading them
 * anyway cost the agent about 100 KB of heap per pod and the deserializers of some 200 model classes (issue 13). The
 * fields are only skipped on reading: what the agent writes (events, evictions, its NumaNodeState) is serialised as
 * before, and a field left out here stays {@code null} (never an entry of {@code additionalProperties}).
 *
 * <p>Only names that the agent's code never reads are listed; {@code UnreadPodFieldsTest} checks that a pod read this way
 * maps to the same engine pod, containers and IDs as one read whole.
 */
public final class UnreadPodFields {

    /** Per model type, the annotation holder whose {@code @JsonIgnoreProperties} names the fields skipped. */
    static final Map<Class<?>, Class<?>> SKIPPED = Map.of(
            ObjectMeta.class, ObjectMetaFields.class,
            PodSpec.class, PodSpecFields.class,
            Container.class, ContainerFields.class,
            EphemeralContainer.class, ContainerFields.class,
            PodStatus.class, PodStatusFields.class,
            ContainerStatus.class, ContainerStatusFields.class,
            Node.class, NodeFields.class);

    private UnreadPodFields() {}

    /** The serialization of the agent's client: fabric8's, with the fields above skipped on reading. */
    public static KubernetesSerialization serialization() {
        return new KubernetesSerialization(mapper(), true);
    }

    static ObjectMapper mapper() {
        JsonMapper.Builder builder = JsonMapper.builder();
        SKIPPED.forEach(builder::addMixIn);
        return builder.build();
    }

    @JsonIgnoreProperties(
            value = {"managedFields"},
            allowGetters = true)
    abstract static class ObjectMetaFields {}

    @JsonIgnoreProperties(
            value = {
                "volumes",
                "affinity",
                "tolerations",
                "topologySpreadConstraints",
                "hostAliases",
                "dnsConfig",
                "readinessGates",
                "schedulingGates",
                "imagePullSecrets",
                "securityContext",
                "resourceClaims"
            },
            allowGetters = true)
    abstract static class PodSpecFields {}

    @JsonIgnoreProperties(
            value = {
                "env",
                "envFrom",
                "volumeMounts",
                "volumeDevices",
                "ports",
                "livenessProbe",
                "readinessProbe",
                "startupProbe",
                "lifecycle",
                "securityContext",
                "command",
                "args"
            },
            allowGetters = true)
    abstract static class ContainerFields {}

    @JsonIgnoreProperties(
            value = {"conditions", "podIPs", "hostIPs", "resourceClaimStatuses"},
            allowGetters = true)
    abstract static class PodStatusFields {}

    @JsonIgnoreProperties(
            value = {"volumeMounts", "user", "allocatedResourcesStatus"},
            allowGetters = true)
    abstract static class ContainerStatusFields {}

    /** The agent reads its Node's labels and UID only (membership, the NRT owner); its status lists every image. */
    @JsonIgnoreProperties(
            value = {"spec", "status"},
            allowGetters = true)
    abstract static class NodeFields {}
}
