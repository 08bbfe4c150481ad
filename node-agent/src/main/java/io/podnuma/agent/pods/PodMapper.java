package io.podnuma.agent.pods;

import io.fabric8.kubernetes.api.model.EphemeralContainer;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.podnuma.agent.engine.pod.Container;
import io.podnuma.agent.engine.pod.ContainerType;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.engine.pod.Resources;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Maps a fabric8 {@code Pod} to the engine's pod model. The pod budget comes from {@code spec.resources};
 * when that names neither CPU nor memory and a budget annotation key is configured, from that annotation.
 */
public final class PodMapper {

    private final String budgetAnnotation;

    /** @param budgetAnnotation the annotation key holding the pod budget, or null to read none */
    public PodMapper(String budgetAnnotation) {
        this.budgetAnnotation = budgetAnnotation;
    }

    /** @throws PodMappingException naming the field and value that cannot be read */
    public Pod map(io.fabric8.kubernetes.api.model.Pod pod) {
        var meta = pod.getMetadata();
        if (meta == null || meta.getName() == null) {
            throw new PodMappingException("metadata.name is missing");
        }
        if (pod.getSpec() == null) {
            throw new PodMappingException("pod " + meta.getName() + ": spec is missing");
        }
        String uid = meta.getUid() != null && !meta.getUid().isBlank()
                ? meta.getUid()
                : (meta.getNamespace() == null ? "default" : meta.getNamespace()) + "." + meta.getName();
        PodRef ref = new PodRef(uid, meta.getNamespace() == null ? "default" : meta.getNamespace(), meta.getName());
        var spec = pod.getSpec();
        List<Container> init = new ArrayList<>();
        for (var c : spec.getInitContainers()) {
            boolean sidecar = "Always".equals(c.getRestartPolicy());
            init.add(container(
                    "spec.initContainers",
                    c.getName(),
                    sidecar ? ContainerType.SIDECAR : ContainerType.INIT,
                    c.getResources()));
        }
        List<Container> app = new ArrayList<>();
        for (var c : spec.getContainers()) {
            app.add(container("spec.containers", c.getName(), ContainerType.APP, c.getResources()));
        }
        List<Container> ephemeral = new ArrayList<>();
        for (EphemeralContainer c : spec.getEphemeralContainers()) {
            ephemeral.add(
                    container("spec.ephemeralContainers", c.getName(), ContainerType.EPHEMERAL, c.getResources()));
        }
        Optional<Resources> budget = Optional.empty();
        Resources fromSpec = resources("spec.resources", spec.getResources());
        if (fromSpec.hasCpuOrMemory()) {
            budget = Optional.of(fromSpec);
        } else if (budgetAnnotation != null && meta.getAnnotations() != null) {
            String value = meta.getAnnotations().get(budgetAnnotation);
            if (value != null) {
                budget = Optional.of(BudgetAnnotation.parse(budgetAnnotation, value));
            }
        }
        try {
            return new Pod(ref, budget, init, app, ephemeral);
        } catch (IllegalArgumentException e) {
            throw new PodMappingException(e.getMessage(), e);
        }
    }

    private static Container container(String list, String name, ContainerType type, ResourceRequirements r) {
        if (name == null || name.isBlank()) {
            throw new PodMappingException(list + ": a container has no name");
        }
        String field = list + "[" + name + "].resources";
        return new Container(name, type, resources(field, r));
    }

    private static Resources resources(String field, ResourceRequirements r) {
        if (r == null) {
            return Resources.NONE;
        }
        return ResourceListMapper.resources(field, text(r.getRequests()), text(r.getLimits()));
    }

    private static Map<String, String> text(Map<String, Quantity> quantities) {
        Map<String, String> out = new LinkedHashMap<>();
        if (quantities != null) {
            quantities.forEach((k, q) ->
                    out.put(k, q == null ? null : q.getAmount() + (q.getFormat() == null ? "" : q.getFormat())));
        }
        return out;
    }
}
