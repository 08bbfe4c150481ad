package io.podnuma.agent.pods;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * How many devices of each extended resource (a device plugin's, e.g. {@code example.com/accel}) each container of a
 * pod asks for: its limits, which for an extended resource equal its requests.
 *
 * @param byContainer container name to resource to count, both sorted; containers asking for none are absent
 */
public record DeviceRequests(Map<String, Map<String, Long>> byContainer) {

    public static final DeviceRequests NONE = new DeviceRequests(Map.of());

    public DeviceRequests {
        TreeMap<String, Map<String, Long>> copy = new TreeMap<>();
        byContainer.forEach((c, r) -> {
            if (!r.isEmpty()) {
                copy.put(c, Collections.unmodifiableSortedMap(new TreeMap<>(r)));
            }
        });
        byContainer = Collections.unmodifiableSortedMap(copy);
    }

    /** The extended resources every container, init containers and sidecars included, asks for. */
    public static DeviceRequests of(io.fabric8.kubernetes.api.model.Pod pod) {
        if (pod.getSpec() == null) {
            return NONE;
        }
        Map<String, Map<String, Long>> out = new TreeMap<>();
        Stream.of(pod.getSpec().getInitContainers(), pod.getSpec().getContainers())
                .filter(Objects::nonNull)
                .flatMap(List::stream)
                .forEach(c -> out.put(c.getName(), extended(c)));
        return new DeviceRequests(out);
    }

    public boolean isEmpty() {
        return byContainer.isEmpty();
    }

    private static Map<String, Long> extended(Container c) {
        Map<String, Long> out = new TreeMap<>();
        if (c.getResources() == null || c.getResources().getLimits() == null) {
            return out;
        }
        c.getResources().getLimits().forEach((name, q) -> {
            Long count = count(q);
            if (isExtended(name) && count != null && count > 0) {
                out.put(name, count);
            }
        });
        return out;
    }

    /** A resource outside Kubernetes's own names: it has a domain, and the domain is not kubernetes.io's. */
    static boolean isExtended(String name) {
        return name.contains("/") && !name.contains("kubernetes.io/") && !name.startsWith("requests.");
    }

    /** The whole number a quantity is, or null (the API server allows only whole extended resources). */
    private static Long count(Quantity q) {
        try {
            BigDecimal n = q.getNumericalAmount();
            return n.signum() >= 0 && n.stripTrailingZeros().scale() <= 0 ? n.longValueExact() : null;
        } catch (ArithmeticException | IllegalArgumentException e) {
            return null;
        }
    }
}
