package io.podnuma.agent.engine.pod;

/** Who a pod is: its UID (the key everywhere in the engine) and its namespace and name (for people). */
public record PodRef(String uid, String namespace, String name) {

    public PodRef {
        if (uid == null || uid.isBlank()) {
            throw new IllegalArgumentException("pod " + namespace + "/" + name + " has no uid");
        }
        if (uid.contains("/")) {
            throw new IllegalArgumentException("pod uid \"" + uid + "\" must not contain '/'");
        }
        namespace = namespace == null ? "" : namespace;
        name = name == null ? "" : name;
    }

    @Override
    public String toString() {
        return namespace + "/" + name + " (uid " + uid + ")";
    }
}
