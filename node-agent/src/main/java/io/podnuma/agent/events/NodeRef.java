package io.podnuma.agent.events;

/** The agent's own Node as the subject of an Event. */
public record NodeRef(String name) implements EventTarget {

    public NodeRef {
        PodTarget.requireText(name, "node name");
    }

    @Override
    public String kind() {
        return "Node";
    }

    @Override
    public String namespace() {
        return "";
    }

    /** The node's name: {@code kubectl describe node} searches Node events by that UID, as the kubelet writes them. */
    @Override
    public String uid() {
        return name;
    }

    /** The node's user as the Node authorizer and NodeRestriction know it: {@code system:node:<name>}. */
    public String userName() {
        return "system:node:" + name;
    }

    @Override
    public String toString() {
        return "node " + name;
    }
}
