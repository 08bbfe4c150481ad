package io.podnuma.crds.agent.v1alpha1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.crds.v1alpha1.policy.CpuManagerOptions;
import io.podnuma.crds.v1alpha1.policy.CpuManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.MemoryManager;
import io.podnuma.crds.v1alpha1.policy.MemoryManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.NumaMemoryReservation;
import io.podnuma.crds.v1alpha1.policy.PodLevelResources;
import io.podnuma.crds.v1alpha1.policy.TopologyManager;
import io.podnuma.crds.v1alpha1.policy.TopologyManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.TopologyManagerScope;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeAgentConfigYamlTest {

    @TempDir
    Path dir;

    static NumaResourcePolicySpec policy() {
        return new NumaResourcePolicySpec(
                null,
                null,
                new TopologyManager(TopologyManagerPolicy.SINGLE_NUMA_NODE, TopologyManagerScope.POD, null),
                new CpuManager(
                        CpuManagerPolicy.STATIC,
                        "0,64",
                        null,
                        new CpuManagerOptions(true, null, null, null, null, null),
                        null),
                new MemoryManager(
                        MemoryManagerPolicy.STATIC,
                        List.of(new NumaMemoryReservation(
                                0, Map.of("memory", new Quantity("1Gi"), "hugepages-2Mi", new Quantity("64Mi"))))),
                new PodLevelResources(true, "podnuma.io/pod-resources"),
                AdmissionAction.WARN,
                null);
    }

    /** Every key set, with values that are easy to get wrong in YAML (octal, IPv6, numbers as strings). */
    static NodeAgentConfig everyKey() {
        return NodeAgentConfig.builder("worker-1", policy())
                .sysfsRoot("/sys")
                .cgroupRoot("/sys/fs/cgroup")
                .cgroupDriver("auto")
                .stateDir("/var/lib/podnuma")
                .kubeletCgroupRoot("/")
                .exclusiveCpuQuota("keep")
                .pinning("auto")
                .nriSocket("/var/run/nri/nri.sock")
                .nriPluginName("podnuma")
                .nriPluginIndex("05")
                .reconcilePeriod("10s")
                .podResourcesSocket("/var/lib/podnuma/pod-resources/podnuma.sock")
                .podResourcesSocketMode("0600")
                .podResourcesQps(new BigDecimal("0.0001"))
                .podResourcesBurst(10)
                .kubeletPodResourcesSocket("")
                .kubeletCallTimeout("1m30s")
                .kubeletCheckSocket("/var/lib/kubelet/pod-resources/kubelet.sock")
                .kubeletConfigFile("/var/lib/kubelet/config.yaml")
                .statusMinInterval("2s")
                .metricsBindAddress("::1")
                .metricsPort(9464)
                .metricsSecurity("https")
                .metricsCertFile("/run/podnuma/metrics-tls/tls.crt")
                .metricsKeyFile("/run/podnuma/metrics-tls/tls.key")
                .metricsAuthCacheTtl("1m")
                .healthBindAddress("0.0.0.0")
                .healthPort(8081)
                .logLevel("info")
                .logFormat("json")
                .policyName("123")
                .build();
    }

    @Test
    void everyKeyRoundTrips() {
        NodeAgentConfig config = everyKey();
        for (RecordComponent c : NodeAgentConfig.class.getRecordComponents()) {
            assertThat(component(config, c)).as("the test sets %s", c.getName()).isNotNull();
        }
        String yaml = NodeAgentConfigYaml.write(config);
        assertThat(NodeAgentConfigYaml.read(yaml)).isEqualTo(config);
        assertThat(NodeAgentConfigYaml.write(NodeAgentConfigYaml.read(yaml))).isEqualTo(yaml);
        assertThat(NodeAgentConfigYaml.read(NodeAgentConfigYaml.write(config, dir.resolve("agent.yaml"))))
                .isEqualTo(config);
    }

    @Test
    void theOutputIsCanonical() {
        String yaml = NodeAgentConfigYaml.write(everyKey());
        List<String> topLevel = yaml.lines()
                .filter(l -> !l.startsWith(" ") && !l.startsWith("-"))
                .map(l -> l.substring(0, l.indexOf(':')))
                .toList();
        assertThat(topLevel)
                .as("the documented order, header first and policy last")
                .containsExactly(Arrays.stream(NodeAgentConfig.class.getRecordComponents())
                        .map(RecordComponent::getName)
                        .toArray(String[]::new));
        assertThat(yaml)
                .startsWith("apiVersion: \"podnuma.io/v1alpha1\"\nkind: \"NodeAgentConfig\"\n")
                .doesNotContain("null", "---")
                .contains("podResourcesSocketMode: \"0600\"\n")
                .contains("metricsBindAddress: \"::1\"\n")
                .contains("podResourcesQps: 0.0001\n")
                .contains("nriPluginIndex: \"05\"\n")
                .contains("policyName: \"123\"\n");
        assertThat(yaml.indexOf("hugepages-2Mi")).as("map keys sorted").isLessThan(yaml.indexOf("memory:"));
    }

    @Test
    void unsetKeysStayOut() {
        NodeAgentConfig minimal = NodeAgentConfig.builder("n1", policy()).build();
        String yaml = NodeAgentConfigYaml.write(minimal);
        assertThat(yaml.lines().filter(l -> !l.startsWith(" ")).map(l -> l.substring(0, l.indexOf(':'))))
                .containsExactly("apiVersion", "kind", "nodeName", "policy");
        assertThat(NodeAgentConfigYaml.read(yaml)).isEqualTo(minimal);
        assertThat(minimal.metricsPort()).isNull();
    }

    @Test
    void theHeaderDefaultsToThisKind() {
        NodeAgentConfig read = NodeAgentConfigYaml.read("nodeName: n1\n");
        assertThat(read.apiVersion()).isEqualTo(NodeAgentConfig.API_VERSION);
        assertThat(read.kind()).isEqualTo(NodeAgentConfig.KIND);
        assertThat(read.policy()).isNull();
    }

    @Test
    void unknownAndRepeatedKeysAreRefused() {
        assertThatThrownBy(() -> NodeAgentConfigYaml.read("nodeName: n1\nmetricPort: 1\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("metricPort");
        assertThatThrownBy(() -> NodeAgentConfigYaml.read("nodeName: n1\nnodeName: n2\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nodeName");
        assertThatThrownBy(
                        () -> NodeAgentConfigYaml.read("nodeName: n1\npolicy: {cpuManager: {reservedCPUs: \"0\"}}\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reservedCPUs");
    }

    private static Object component(NodeAgentConfig config, RecordComponent c) {
        try {
            return c.getAccessor().invoke(config);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
