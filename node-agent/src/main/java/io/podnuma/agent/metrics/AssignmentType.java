package io.podnuma.agent.metrics;

/** The {@code assignment_type} label of {@code resource_manager_container_assignments}. */
public enum AssignmentType {
    /** The container's own resources, taken from the node. */
    NODE_EXCLUSIVE("node_exclusive"),
    /** The container's own slice of its pod's bubble. */
    POD_EXCLUSIVE("pod_exclusive"),
    /** The pod's shared pool: its bubble minus the exclusive slices. */
    POD_SHARED("pod_shared");

    private final String label;

    AssignmentType(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
