package io.podnuma.agent.kubelet;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the kubelet's files are mounted into the agent; an empty path is not looked at.
 *
 * @param cpuManagerState the CPU manager checkpoint ({@code cpu_manager_state})
 * @param memoryManagerState the memory manager checkpoint ({@code memory_manager_state})
 * @param kubeletConfig the {@code KubeletConfiguration} file given to the kubelet with {@code --config}
 */
public record KubeletFiles(
        Optional<Path> cpuManagerState, Optional<Path> memoryManagerState, Optional<Path> kubeletConfig) {

    public static final String CPU_MANAGER_STATE = "cpu_manager_state";
    public static final String MEMORY_MANAGER_STATE = "memory_manager_state";

    public KubeletFiles {
        Objects.requireNonNull(cpuManagerState, "cpuManagerState");
        Objects.requireNonNull(memoryManagerState, "memoryManagerState");
        Objects.requireNonNull(kubeletConfig, "kubeletConfig");
    }

    /** The two checkpoints under the kubelet's root directory (usually {@code /var/lib/kubelet}). */
    public static KubeletFiles inRootDir(Path kubeletRoot, Optional<Path> kubeletConfig) {
        return new KubeletFiles(
                Optional.of(kubeletRoot.resolve(CPU_MANAGER_STATE)),
                Optional.of(kubeletRoot.resolve(MEMORY_MANAGER_STATE)),
                kubeletConfig);
    }
}
