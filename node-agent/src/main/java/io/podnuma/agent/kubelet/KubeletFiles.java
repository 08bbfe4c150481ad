package io.podnuma.agent.kubelet;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the agent meets the kubelet for the coexistence check; an empty one is not looked at.
 *
 * @param podResourcesSocket the kubelet's PodResources socket ({@code <root-dir>/pod-resources/kubelet.sock}): its
 *     {@code GetAllocatableResources} answer tells which CPU and memory manager policies the running kubelet has
 * @param kubeletConfig the {@code KubeletConfiguration} file given to the kubelet with {@code --config}
 */
public record KubeletFiles(Optional<Path> podResourcesSocket, Optional<Path> kubeletConfig) {

    /** The kubelet's socket file name in its {@code pod-resources} directory. */
    public static final String KUBELET_SOCKET = "kubelet.sock";

    public KubeletFiles {
        Objects.requireNonNull(podResourcesSocket, "podResourcesSocket");
        Objects.requireNonNull(kubeletConfig, "kubeletConfig");
    }
}
