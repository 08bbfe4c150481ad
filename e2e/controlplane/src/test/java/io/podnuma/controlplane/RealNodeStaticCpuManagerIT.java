package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The kubelet's CPU manager is selectable: with {@code static}, a Guaranteed 1-CPU container gets CPU 1 alone. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RealNodeStaticCpuManagerIT {

    private LocalControlPlane plane;
    private RealNode node;

    @BeforeAll
    void startNode() {
        RealNode.assumeAvailable(RealNodeStaticCpuManagerIT.class);
        int cpus = Runtime.getRuntime().availableProcessors();
        Assumptions.assumeTrue(
                cpus >= 2, "the static policy reserves CPU 0 and needs a second CPU; this machine has " + cpus);
        node = RealNode.startWithPlane(
                RealNodeOptions.defaults().withCpuManagerPolicy(RealNodeOptions.CpuManagerPolicy.STATIC));
        plane = node.plane();
    }

    @AfterAll
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void aGuaranteedIntegerCpuContainerGetsAnExclusiveCpu() throws IOException {
        Pod pod = node.runPausePod("default", "exclusive", "", """
                    resources:
                      requests: {cpu: "1", memory: 64Mi}
                      limits: {cpu: "1", memory: 64Mi}
                """);
        String id = pod.getStatus().getContainerStatuses().get(0).getContainerID();
        long pid = node.containerPid(id).orElseThrow();

        assertThat(allowedCpus(pid)).isEqualTo("1");
        Path state = node.runDir().resolve("kubelet/root/cpu_manager_state");
        assertThat(Files.readString(state))
                .contains(
                        "\"policyName\":\"static\"",
                        "\"defaultCpuSet\":\"0\"",
                        pod.getMetadata().getUid());

        plane.kubectl("delete", "pod", "-n", "default", "exclusive", "--wait=true", "--timeout=60s")
                .assertSuccess();
    }

    private static String allowedCpus(long pid) throws IOException {
        List<String> status = Files.readAllLines(Path.of("/proc/" + pid + "/status"));
        return status.stream()
                .filter(line -> line.startsWith("Cpus_allowed_list:"))
                .map(line -> line.substring("Cpus_allowed_list:".length()).strip())
                .findFirst()
                .orElseThrow();
    }
}
