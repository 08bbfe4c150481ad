package io.podnuma.agent.cgroup.watch;

import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.cgroup.ContainerRuntime;
import io.podnuma.agent.cgroup.InvalidCgroupNameException;
import io.podnuma.agent.engine.pod.PodQos;
import java.util.List;
import java.util.Optional;

/**
 * What a directory of a cgroup hierarchy is to container discovery, by its path alone: a level that may hold
 * containers (the root, kubepods, a QoS class, a pod), a container, something to ignore, or a name the kubelet and
 * the runtimes would not create. The names themselves are {@link CgroupNaming}'s knowledge; this class only asks it.
 */
final class KubepodsTree {

    /** What a directory is. */
    sealed interface Kind {}

    /** The root, kubepods, a QoS class or a pod: watched and listed, because containers appear below it. */
    record Parent() implements Kind {}

    record Container(ContainerCgroup container) implements Kind {}

    /** Outside kubepods, inside a container, or a runtime helper such as CRI-O's conmon scope. */
    record Ignored() implements Kind {}

    record Unrecognised(String reason) implements Kind {}

    private static final Parent PARENT = new Parent();
    private static final Ignored IGNORED = new Ignored();
    private static final String SAMPLE_UID = "00000000-0000-0000-0000-000000000000";

    private final CgroupNaming naming;
    private final String kubepods;
    private final List<CgroupPath> qosDirs;
    private final String probe;

    KubepodsTree(CgroupNaming naming) {
        this.naming = naming;
        this.kubepods = naming.driver().kubepodsName();
        this.qosDirs = List.of(
                naming.podPath(PodQos.BURSTABLE, SAMPLE_UID).parent(),
                naming.podPath(PodQos.BEST_EFFORT, SAMPLE_UID).parent());
        // A pod directory is one in which a container's directory would parse: this name is such a directory.
        ContainerCgroup sample = new ContainerCgroup(
                PodQos.GUARANTEED, SAMPLE_UID, new ContainerId(ContainerRuntime.CONTAINERD, "0".repeat(64)));
        List<String> sampleSegments = naming.containerPath(sample).segments();
        this.probe = sampleSegments.get(sampleSegments.size() - 1);
    }

    /**
     * Whether an entry named {@code name} in a directory below the hierarchy root is one of the kernel's cgroup
     * control files ({@code <controller>.<key>} such as {@code cpuset.cpus} or {@code memory.swap.max}, and the dotless
     * {@code tasks}, {@code notify_on_release}, {@code release_agent}), told by its name alone: a pod directory holds
     * some 30 of them beside a few containers, and a rescan need neither stat nor classify them. No directory the
     * kubelet or a runtime makes below kubepods has such a name: theirs contain a dash ({@code kubepods-pod…slice},
     * {@code cri-containerd-….scope}, {@code crio-…}) or no dot ({@code burstable}, {@code pod<uid>}, a bare
     * 64-hex-digit ID). At the root, {@code kubepods.slice} has the shape, so the root's entries are not judged here.
     */
    static boolean isControlFile(String name) {
        switch (name) {
            case "tasks", "notify_on_release", "release_agent" -> {
                return true;
            }
            default -> {}
        }
        boolean dot = false;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '.') {
                if (i == 0 || i == name.length() - 1) {
                    return false;
                }
                dot = true;
            } else if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) {
                return false;
            }
        }
        return dot;
    }

    Kind classify(CgroupPath path) {
        List<String> s = path.segments();
        if (s.isEmpty()) {
            return PARENT;
        }
        if (!s.get(0).equals(kubepods)) {
            return IGNORED;
        }
        if (s.size() == 1) {
            return PARENT;
        }
        Optional<ContainerCgroup> container;
        try {
            container = naming.parse(path);
        } catch (InvalidCgroupNameException e) {
            return new Unrecognised(e.getMessage());
        }
        if (container.isPresent()) {
            return new Container(container.get());
        }
        if (qosDirs.contains(path) || (s.size() <= 3 && holdsContainers(path))) {
            return PARENT;
        }
        return IGNORED;
    }

    private boolean holdsContainers(CgroupPath path) {
        try {
            return naming.parse(path.child(probe)).isPresent();
        } catch (InvalidCgroupNameException e) {
            return false;
        }
    }
}
