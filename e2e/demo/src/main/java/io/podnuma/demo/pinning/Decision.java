package io.podnuma.demo.pinning;

import java.util.Optional;

/** What podnuma decided for one container, as the demo's table shows it. */
public enum Decision {
    /** CPUs of its own. */
    EXCLUSIVE("exclusive"),
    /** The pod's shared pool: the bubble minus its containers' exclusive CPUs. */
    POD_SHARED("pod-shared"),
    /** The node's shared pool. */
    NODE_SHARED("node-shared"),
    /** The pod was refused (a Warning Event says why) and runs on the node's shared pool. */
    REFUSED("refused: node-shared");

    private final String label;

    Decision(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The decision for an assignment as {@code NumaNodeState} spells it ({@code Exclusive}, ...). */
    public static Optional<Decision> ofAssignment(String assignment) {
        return switch (assignment) {
            case "Exclusive" -> Optional.of(EXCLUSIVE);
            case "PodShared" -> Optional.of(POD_SHARED);
            case "NodeShared" -> Optional.of(NODE_SHARED);
            default -> Optional.empty();
        };
    }
}
