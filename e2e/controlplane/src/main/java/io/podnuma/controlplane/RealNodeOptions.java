package io.podnuma.controlplane;

import java.nio.file.Path;
import java.util.List;

/**
 * What a test chooses about its {@link RealNode}: the kubelet's CPU manager policy, its topology manager, and the image
 * tars to import besides the pause image.
 */
public record RealNodeOptions(
        CpuManagerPolicy cpuManagerPolicy,
        TopologyManager topologyManager,
        List<Path> images,
        NriValidation nriValidation) {

    /**
     * containerd's NRI default validator: off (NRI is fail-open: a container is created whether or not a plugin
     * answered), or on with the plugins every container needs ({@code required_plugins}; may be none, then only pods
     * annotated {@code required-plugins.noderesource.dev} need theirs). A container whose pod carries the annotation
     * {@link RealNode#NRI_TOLERATE_ANNOTATION}{@code : "true"} is created without them.
     */
    public record NriValidation(boolean enabled, List<String> requiredPlugins) {
        public static final NriValidation OFF = new NriValidation(false, List.of());

        public NriValidation {
            requiredPlugins = List.copyOf(requiredPlugins);
        }

        public static NriValidation requiring(List<String> plugins) {
            return new NriValidation(true, plugins);
        }
    }

    /** The kubelet's topology manager (policy and scope together: the combinations the tests use). */
    public enum TopologyManager {
        /** The kubelet's default: policy none, container scope. */
        NONE(""),
        /** single-numa-node at pod scope: with the static CPU policy, the kubelet's pod-level resource managers. */
        SINGLE_NUMA_NODE_POD_SCOPE("topologyManagerPolicy: single-numa-node\ntopologyManagerScope: pod\n");

        private final String kubeletLines;

        TopologyManager(String kubeletLines) {
            this.kubeletLines = kubeletLines;
        }

        String kubeletLines() {
            return kubeletLines;
        }
    }

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
        java.util.Objects.requireNonNull(nriValidation, "nriValidation");
    }

    public static RealNodeOptions defaults() {
        return new RealNodeOptions(CpuManagerPolicy.NONE, TopologyManager.NONE, List.of(), NriValidation.OFF);
    }

    public RealNodeOptions withCpuManagerPolicy(CpuManagerPolicy policy) {
        return new RealNodeOptions(policy, topologyManager, images, nriValidation);
    }

    public RealNodeOptions withTopologyManager(TopologyManager manager) {
        return new RealNodeOptions(cpuManagerPolicy, manager, images, nriValidation);
    }

    public RealNodeOptions withImages(List<Path> tars) {
        return new RealNodeOptions(cpuManagerPolicy, topologyManager, tars, nriValidation);
    }

    public RealNodeOptions withNriValidation(NriValidation validation) {
        return new RealNodeOptions(cpuManagerPolicy, topologyManager, images, validation);
    }
}
