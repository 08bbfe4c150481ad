package io.podnuma.agent.pods;

import io.podnuma.agent.engine.memory.MemoryQuantity;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.pod.CpuQuantity;
import io.podnuma.agent.engine.pod.ResourceList;
import io.podnuma.agent.engine.pod.Resources;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns Kubernetes resource lists (resource name to quantity text) into the engine's {@link ResourceList}:
 * {@code cpu}, {@code memory} and {@code hugepages-<size>}; other resources (storage, devices) are not the
 * engine's business and are skipped.
 */
final class ResourceListMapper {

    private ResourceListMapper() {}

    /**
     * @param field the path in error messages, e.g. {@code spec.containers[app].resources.limits}
     */
    static ResourceList map(String field, Map<String, String> quantities) {
        if (quantities == null || quantities.isEmpty()) {
            return ResourceList.EMPTY;
        }
        Long cpu = null;
        TreeMap<MemoryResource, Long> memory = new TreeMap<>();
        for (Map.Entry<String, String> e : new TreeMap<>(quantities).entrySet()) {
            String name = e.getKey();
            String what = field + "." + name;
            try {
                if ("cpu".equals(name)) {
                    cpu = CpuQuantity.parseMillis(what, e.getValue());
                } else if ("memory".equals(name) || name.startsWith("hugepages-")) {
                    MemoryResource resource = MemoryResource.parse(name);
                    memory.put(resource, MemoryQuantity.parseBytes(what, e.getValue()));
                }
            } catch (PodMappingException ex) {
                throw ex;
            } catch (IllegalArgumentException ex) {
                throw new PodMappingException(
                        ex.getMessage().startsWith(what) ? ex.getMessage() : what + ": " + ex.getMessage(), ex);
            }
        }
        return new ResourceList(cpu, memory);
    }

    /** Requests and limits, with the API server's rule that no request may exceed its limit. */
    static Resources resources(String field, Map<String, String> requests, Map<String, String> limits) {
        ResourceList req = map(field + ".requests", requests);
        ResourceList lim = map(field + ".limits", limits);
        if (req.cpuMillis() != null && lim.cpuMillis() != null && req.cpuMillis() > lim.cpuMillis()) {
            throw new PodMappingException(field + ".requests.cpu " + CpuQuantity.format(req.cpuMillis())
                    + " must be less than or equal to " + field + ".limits.cpu " + CpuQuantity.format(lim.cpuMillis()));
        }
        for (Map.Entry<MemoryResource, Long> e : req.memory().entrySet()) {
            Long limit = lim.memory().get(e.getKey());
            if (limit != null && e.getValue() > limit) {
                throw new PodMappingException(field + ".requests." + e.getKey() + " "
                        + MemoryQuantity.format(e.getValue()) + " must be less than or equal to " + field + ".limits."
                        + e.getKey() + " " + MemoryQuantity.format(limit));
            }
        }
        return new Resources(req, lim);
    }
}
