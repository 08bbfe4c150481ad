package io.podnuma.agent.engine.topology;

/**
 * The topology manager's verdict for one merge (a container, or a whole pod under pod scope).
 *
 * @param hint the merged hint the resource managers must allocate within ({@code null} mask = anywhere)
 * @param admitted whether the policy lets the pod in
 * @param reason {@link #TOPOLOGY_AFFINITY_ERROR} when rejected, else {@code null}
 * @param message what was requested and what was possible, when rejected; else {@code null}
 */
public record TopologyAdmission(TopologyHint hint, boolean admitted, String reason, String message) {

    /** The pod status reason the kubelet uses for this rejection. */
    public static final String TOPOLOGY_AFFINITY_ERROR = "TopologyAffinityError";

    public static TopologyAdmission admit(TopologyHint hint) {
        return new TopologyAdmission(hint, true, null, null);
    }

    public static TopologyAdmission reject(TopologyHint hint, String message) {
        return new TopologyAdmission(hint, false, TOPOLOGY_AFFINITY_ERROR, message);
    }
}
