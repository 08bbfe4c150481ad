package io.podnuma.agent.pods;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.testkit.agent.AgentCliJar;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The shipped jar registers with fabric8's deserializer only the resource types the agent reads or writes, and still
 * holds every class, for the client's reflection on its own DSL (see the shade filters in node-agent/pom.xml).
 */
class AgentJarResourceTypesIT {

    private static final String SERVICES = "META-INF/services/io.fabric8.kubernetes.api.model.KubernetesResource";

    @Test
    void onlyCoreAndPolicyTypesAreRegisteredButEveryGroupsClassesArePresent() throws IOException {
        try (JarFile jar = new JarFile(AgentCliJar.locate().toFile())) {
            List<String> registered;
            try (InputStream in = jar.getInputStream(jar.getEntry(SERVICES))) {
                registered = Arrays.stream(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"))
                        .map(String::strip)
                        .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                        .toList();
            }
            assertThat(registered)
                    .contains("io.fabric8.kubernetes.api.model.Pod", "io.fabric8.kubernetes.api.model.Node")
                    .contains("io.fabric8.kubernetes.api.model.policy.v1.Eviction")
                    .allSatisfy(type ->
                            assertThat(type).matches("io\\.fabric8\\.kubernetes\\.api\\.model\\.([A-Z]|policy\\.).*"));
            for (String kept : List.of(
                    "io/fabric8/kubernetes/api/model/rbac/Role.class",
                    "io/fabric8/kubernetes/api/model/autoscaling/v1/Scale.class",
                    "io/fabric8/kubernetes/api/model/coordination/v1/Lease.class",
                    "io/fabric8/kubernetes/api/model/apps/Deployment.class")) {
                assertThat(jar.getEntry(kept)).as(kept).isNotNull();
            }
        }
    }
}
