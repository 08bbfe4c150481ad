package io.podnuma.e2e.realnode;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.controlplane.RealNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What the running agent process on the real node holds, read from the host's {@code /proc/<pid>}: no capability in
 * any set, no privilege gain on exec, the runtime's seccomp filter, a read-only root. This is the kernel's view of the
 * security context the operator renders (the README's "What it touches and why").
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
    }
}
