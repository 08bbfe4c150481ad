package io.podnuma.e2e.footprint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class IdleJvmPodTest {

    @Test
    void theAgentsJvmOptionsStayAndItsJarGivesWayToTheIdleMain() {
        List<String> agent = List.of(
                "/opt/podnuma/jre/bin/java",
                "-XX:+UseSerialGC",
                "-Xmx64m",
                "-jar",
                "/opt/podnuma/node-agent.jar",
                "run",
                "--config",
                "/etc/podnuma/agent.yaml");
        assertThat(IdleJvmPod.command(agent))
                .containsExactly(
                        "/opt/podnuma/jre/bin/java",
                        "-XX:+UseSerialGC",
                        "-Xmx64m",
                        "-cp",
                        IdleJvmPod.MOUNT,
                        "io.podnuma.e2e.footprint.IdleMain");
    }

    @Test
    void aCommandLineWithoutAJarIsRefused() {
        assertThatThrownBy(() -> IdleJvmPod.command(List.of("/bin/sleep", "infinity")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-jar");
    }
}
