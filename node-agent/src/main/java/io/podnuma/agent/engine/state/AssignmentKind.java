package io.podnuma.agent.engine.state;

/** How a container gets its CPUs. */
public enum AssignmentKind {
    /** Its own CPUs: from the node (container scope, classic pods) or a slice of its pod's bubble. */
    EXCLUSIVE("exclusive"),
    /** Its pod's shared pool: the bubble minus the exclusive slices (pod-level resources, pod scope). */
    POD_SHARED("pod-shared"),
    /** The node shared pool, which grows and shrinks as exclusive CPUs come and go. */
    NODE_SHARED("node-shared");

    private final String wireName;

    AssignmentKind(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static AssignmentKind parse(String value) {
        for (AssignmentKind k : values()) {
            if (k.wireName.equals(value)) {
                return k;
            }
        }
        throw new IllegalArgumentException(
                "assignment kind \"" + value + "\" is unknown: allowed exclusive, pod-shared, node-shared");
    }
}
