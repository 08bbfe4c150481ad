package io.podnuma.agent.report.nrt;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.podnuma.agent.report.nrt.NodeResourceTopology.Attribute;
import io.podnuma.agent.report.nrt.NodeResourceTopology.Cost;
import io.podnuma.agent.report.nrt.NodeResourceTopology.ResourceInfo;
import io.podnuma.agent.report.nrt.NodeResourceTopology.Zone;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code NodeResourceTopology} API as the agent writes it: cluster-scoped {@code
 * noderesourcetopologies.topology.node.k8s.io}, version {@code v1alpha2}, and the JSON shape of its fields.
 */
public final class NrtApi {

    public static final String GROUP = "topology.node.k8s.io";
    public static final String VERSION = "v1alpha2";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "NodeResourceTopology";
    public static final String PLURAL = "noderesourcetopologies";
    public static final String CRD_NAME = PLURAL + "." + GROUP;

    /** Given explicitly, so the client never needs discovery to find the resource. */
    public static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup(GROUP)
            .withVersion(VERSION)
            .withKind(KIND)
            .withPlural(PLURAL)
            .withNamespaced(false)
            .build();

    private NrtApi() {}

    /** The object to apply: name, owner reference (when the Node's UID is known) and the fields; nothing else. */
    public static GenericKubernetesResource toResource(NodeResourceTopology nrt) {
        ObjectMetaBuilder meta = new ObjectMetaBuilder().withName(nrt.nodeName());
        nrt.nodeUid()
                .ifPresent(uid -> meta.withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion("v1")
                        .withKind("Node")
                        .withName(nrt.nodeName())
                        .withUid(uid)
                        .build()));
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion(API_VERSION);
        r.setKind(KIND);
        r.setMetadata(meta.build());
        r.setAdditionalProperty("topologyPolicies", nrt.topologyPolicies());
        r.setAdditionalProperty("zones", nrt.zones().stream().map(NrtApi::zone).toList());
        if (!nrt.attributes().isEmpty()) {
            r.setAdditionalProperty("attributes", attributes(nrt.attributes()));
        }
        return r;
    }

    private static Map<String, Object> zone(Zone z) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", z.name());
        m.put("type", z.type());
        if (!z.costs().isEmpty()) {
            m.put("costs", z.costs().stream().map(NrtApi::cost).toList());
        }
        if (!z.resources().isEmpty()) {
            m.put("resources", z.resources().stream().map(NrtApi::resource).toList());
        }
        if (!z.attributes().isEmpty()) {
            m.put("attributes", attributes(z.attributes()));
        }
        return m;
    }

    private static Map<String, Object> cost(Cost c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", c.name());
        m.put("value", c.value());
        return m;
    }

    private static Map<String, Object> resource(ResourceInfo r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", r.name());
        m.put("capacity", r.capacity());
        m.put("allocatable", r.allocatable());
        m.put("available", r.available());
        return m;
    }

    private static List<Map<String, Object>> attributes(List<Attribute> attributes) {
        return attributes.stream()
                .map(a -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("name", a.name());
                    m.put("value", a.value());
                    return m;
                })
                .toList();
    }
}
