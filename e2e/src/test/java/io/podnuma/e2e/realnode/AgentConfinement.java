package io.podnuma.e2e.realnode;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.controlplane.RealNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What the running agent process on the real node holds, read from the host's {@code /proc/<pid>}: no capability in
 * any set, no privilege gain on exec, the runtime's seccomp filter, a read-only root, and of the kubelet's files only
 * its PodResources socket directory. This is the kernel's view of the security context and the mounts the operator
 * renders (the README's "What it touches and why").
 */
public final class AgentConfinement {

    private AgentConfinement() {}

    public static void assertConfined(RealNode node, Pod agentPod) throws IOException {
        String id = agentPod.getStatus().getContainerStatuses().getFirst().getContainerID();
        long pid = node.containerPid(id).orElseThrow(() -> new AssertionError("no running task for " + id));
        Map<String, String> status = Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                .filter(l -> l.contains(":"))
                .collect(Collectors.toMap(
                        l -> l.substring(0, l.indexOf(':')),
                        l -> l.substring(l.indexOf(':') + 1).strip(),
                        (a, b) -> a));
        String none = "0000000000000000";
        assertThat(status)
                .as("/proc/%d/status of the agent", pid)
                .containsEntry("Uid", "0\t0\t0\t0")
                .containsEntry("CapInh", none)
                .containsEntry("CapPrm", none)
                .containsEntry("CapEff", none)
                .containsEntry("CapBnd", none)
                .containsEntry("CapAmb", none)
                .containsEntry("NoNewPrivs", "1")
                // 2: a seccomp filter (containerd's RuntimeDefault profile).
                .containsEntry("Seccomp", "2");
        List<String> root = Files.readAllLines(Path.of("/proc", Long.toString(pid), "mountinfo")).stream()
                .map(l -> l.split(" "))
                .filter(f -> f[4].equals("/"))
                .map(f -> f[5])
                .toList();
        assertThat(root)
                .as("the agent's root mount options")
                .isNotEmpty()
                .allSatisfy(o -> assertThat(o.split(",")).contains("ro"));
        assertKubeletOutOfReach(node, pid);
    }

    /**
     * The kubelet's identity and device plugin socket are out of the agent's reach (issue 31): no mount of the agent
     * has as its host source the kubelet's root, its PKI directory, its {@code device-plugins} directory or a parent of
     * them, and under none of the agent's mount points (as the agent sees them, through {@code /proc/<pid>/root}) is
     * there a {@code pki} directory or a {@code device-plugins/kubelet.sock}. The one kubelet mount is its
     * {@code pod-resources} directory, with the kubelet's socket in it.
     */
    static void assertKubeletOutOfReach(RealNode node, long pid) throws IOException {
        // Both must be there, else this check proves nothing.
        assertThat(node.kubeletDevicePluginSocket())
                .as("the kubelet's device plugin socket on the host")
                .exists();
        assertThat(node.kubeletPkiDir().resolve("kubelet-client.key"))
                .as("the kubelet's client key on the host")
                .exists();
        Path kubeletRoot = node.kubeletRootDir().toRealPath();
        Path pki = node.kubeletPkiDir().toRealPath();
        Path devicePlugins = node.kubeletDevicePluginSocket().toRealPath().getParent();

        List<Mount> host = Mount.table(Path.of("/proc/self/mountinfo"));
        List<Mount> agent = Mount.table(Path.of("/proc", Long.toString(pid), "mountinfo"));
        Path agentRoot = Path.of("/proc", Long.toString(pid), "root");
        List<Path> sources = new ArrayList<>();
        for (Mount m : agent) {
            // The mount's source as a host path: the host mount of the same file system that shows the source.
            host.stream()
                    .filter(h -> h.device().equals(m.device()) && m.root().startsWith(h.root()))
                    .map(h -> h.point().resolve(h.root().relativize(m.root())))
                    .forEach(sources::add);
            Path inAgent = agentRoot.resolve(Path.of("/").relativize(m.point()));
            assertThat(inAgent.resolve("pki"))
                    .as("a pki directory under the agent's mount %s", m.point())
                    .doesNotExist();
            assertThat(inAgent.resolve("device-plugins/kubelet.sock"))
                    .as("the device plugin socket under the agent's mount %s", m.point())
                    .doesNotExist();
        }
        for (Path kept : List.of(kubeletRoot, pki, devicePlugins)) {
            assertThat(sources)
                    .as("host sources of the agent's mounts: none is %s or a parent of it", kept)
                    .noneMatch(kept::startsWith);
        }
        assertThat(sources)
                .as("the kubelet's PodResources directory, its one mount of the kubelet's")
                .contains(kubeletRoot.resolve("pod-resources"));
        assertThat(agentRoot.resolve("host/kubelet-pod-resources/kubelet.sock"))
                .as("the kubelet's PodResources socket in the agent")
                .exists();
    }

    /** One line of a mountinfo table: the file system (major:minor), the path within it, where it is mounted. */
    record Mount(String device, Path root, Path point) {

        static List<Mount> table(Path mountinfo) throws IOException {
            return Files.readAllLines(mountinfo).stream()
                    .map(l -> l.split(" "))
                    .map(f -> new Mount(f[2], Path.of(unescape(f[3])), Path.of(unescape(f[4]))))
                    .toList();
        }

        /** mountinfo writes space, tab, newline and backslash as octal escapes. */
        private static String unescape(String field) {
            return field.replace("\\040", " ")
                    .replace("\\011", "\t")
                    .replace("\\012", "\n")
                    .replace("\\134", "\\");
        }
    }
}
