package io.podnuma.e2e.footprint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.testkit.agent.JvmFlags;
import java.util.ArrayList;
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
    void theAgentsAotCacheStaysWithTheAgentsJar() {
        List<String> agent = new ArrayList<>(List.of("/opt/podnuma/jre/bin/java", "-XX:+UseSerialGC"));
        agent.addAll(JvmFlags.mappingAotCache("/opt/podnuma/node-agent.aot"));
        agent.addAll(List.of("-jar", "/opt/podnuma/node-agent.jar", "run"));
        assertThat(IdleJvmPod.command(agent))
                .containsExactly(
                        "/opt/podnuma/jre/bin/java",
                        "-XX:+UseSerialGC",
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
