package io.podnuma.agent.engine.pod;

import java.util.Objects;

/** One container of a pod, as the engine sees it. */
public record Container(String name, ContainerType type, Resources resources) {

    public Container {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a container needs a non-empty name");
        }
        if (name.contains("/")) {
            throw new IllegalArgumentException("container name \"" + name + "\" must not contain '/'");
        }
        Objects.requireNonNull(type, "container type");
        resources = resources == null ? Resources.NONE : resources;
    }
}
