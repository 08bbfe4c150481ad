package io.podnuma.agent.engine.topology;

/**
 * A provider's statement that a resource can be placed on {@code numaMask}; {@code preferred} marks the
 * placements the provider considers ideal (usually the narrowest that fit).
 *
 * @param numaMask the NUMA nodes, or {@code null} for "any node will do"
 * @param preferred whether the provider prefers this placement
 */
public record TopologyHint(NumaMask numaMask, boolean preferred) {

    private static final TopologyHint DONT_CARE = new TopologyHint(null, true);
    private static final TopologyHint CANNOT_SATISFY = new TopologyHint(null, false);

    public static TopologyHint preferred(NumaMask mask) {
        return new TopologyHint(mask, true);
    }

    public static TopologyHint notPreferred(NumaMask mask) {
        return new TopologyHint(mask, false);
    }

    /** No NUMA preference at all (the hint a provider stands for when it gives none). */
    public static TopologyHint dontCare() {
        return DONT_CARE;
    }

    /** What a provider that has no feasible placement for a resource contributes to the merge. */
    public static TopologyHint cannotSatisfy() {
        return CANNOT_SATISFY;
    }

    public boolean isDontCare() {
        return numaMask == null;
    }

    @Override
    public String toString() {
        return (numaMask == null ? "any" : numaMask.toString()) + (preferred ? " preferred" : " not-preferred");
    }
}
