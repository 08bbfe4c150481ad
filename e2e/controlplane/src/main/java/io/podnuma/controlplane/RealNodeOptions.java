package io.podnuma.controlplane;

import java.nio.file.Path;
import java.util.List;

/**
 * What a test chooses about its {@link RealNode}: the kubelet's CPU manager policy and the image tars to import
 * besides the pause image.
 */
public record RealNodeOptions(CpuManagerPolicy cpuManagerPolicy, List<Path> images) {

    /** The kubelet's CPU manager policy. */
    public enum CpuManagerPolicy {
        /** podnuma's setting: the kubelet pins nothing. */
        NONE("none"),
        /** To test coexistence and to use the kubelet as an oracle; CPU 0 is reserved for the system. */
        STATIC("static");

        private final String kubeletName;

        CpuManagerPolicy(String kubeletName) {
            this.kubeletName = kubeletName;
        }

        String kubeletName() {
            return kubeletName;
        }
    }

    public RealNodeOptions {
        images = List.copyOf(images);
    }

    public static RealNodeOptions defaults() {
        return new RealNodeOptions(CpuManagerPolicy.NONE, List.of());
    }

    public RealNodeOptions withCpuManagerPolicy(CpuManagerPolicy policy) {
        return new RealNodeOptions(policy, images);
    }

    public RealNodeOptions withImages(List<Path> tars) {
        return new RealNodeOptions(cpuManagerPolicy, tars);
    }
}
