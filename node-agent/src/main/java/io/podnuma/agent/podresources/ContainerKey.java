package io.podnuma.agent.podresources;

import java.util.Objects;

/** A container by pod namespace, pod name and container name: how PodResources answers identify it. */
public record ContainerKey(String namespace, String pod, String container) {

    public ContainerKey {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(pod, "pod");
        Objects.requireNonNull(container, "container");
    }
}
