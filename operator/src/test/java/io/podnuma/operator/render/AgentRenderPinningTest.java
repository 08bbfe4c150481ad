package io.podnuma.operator.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.podnuma.agent.config.AgentConfig;
import io.podnuma.agent.config.AgentConfigLoader;
import io.podnuma.agent.config.NriSettings;
import io.podnuma.agent.config.PinningMode;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfig;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfigYaml;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.crds.v1alpha1.policy.CpuManagerPolicy;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agents' pinning path in what the operator renders: the setting, the NRI socket as the container sees it and
 * the plugin index in the agent's file, the socket's host directory mounted unless pinning is cgroup; and the
 * rendered file read back by the agent's own loader.
 */
class AgentRenderPinningTest {

    private static final AgentRollout ROLLOUT = AgentRollout.defaults("podnuma.local/node-agent:1");
    private static final NumaResourcePolicySpec SPEC = new NumaResourcePolicySpec(
            null, null, null, new CpuManager(CpuManagerPolicy.STATIC, "0", null, null, null), null, null, null, null);

    private static RenderedAgent render(AgentRollout rollout) {
        return AgentRender.render("low-latency", SPEC, rollout);
    }

    private static String file(RenderedAgent r) {
        return r.configMap().getData().get(AgentRender.CONFIG_KEY);
    }

    private static AgentRollout rollout(AgentPinning pinning, String nriSocket, String index) {
        return ROLLOUT.toBuilder()
                .pinning(pinning)
                .nriPluginIndex(index)
                .hostPaths(hostPaths(AgentHostPaths.DEFAULT_POD_RESOURCES_SOCKET, nriSocket))
                .build();
    }

    private static AgentHostPaths hostPaths(String podResourcesSocket, String nriSocket) {
        return new AgentHostPaths(
                "/sys",
                "/sys/fs/cgroup",
                "/var/lib/podnuma",
                Optional.of("/var/lib/kubelet"),
                Optional.empty(),
                podResourcesSocket,
                nriSocket);
    }

    /** The agent's reading of the rendered file, with the node name the downward API gives the pod. */
    private static AgentConfig loaded(RenderedAgent r) {
        return AgentConfigLoader.parse(file(r), "agent.yaml", Map.of(), Map.of("PODNUMA_NODE_NAME", "worker-1"));
    }

    static Stream<Arguments> modes() {
        return Stream.of(
                Arguments.of(
                        AgentPinning.AUTO,
                        AgentHostPaths.DEFAULT_NRI_SOCKET,
                        "40",
                        PinningMode.AUTO,
                        "/var/run/nri",
                        "/var/run/podnuma-nri/nri.sock"),
                Arguments.of(
                        AgentPinning.NRI,
                        "/run/containerd/nri/runtime.socket",
                        "05",
                        PinningMode.NRI,
                        "/run/containerd/nri",
                        "/var/run/podnuma-nri/runtime.socket"));
    }

    @ParameterizedTest
    @MethodSource("modes")
    void withNriTheFileNamesTheSocketInTheMountedHostDirectory(
            AgentPinning pinning,
            String hostSocket,
            String index,
            PinningMode agentMode,
            String hostDir,
            String containerSocket) {
        RenderedAgent r = render(rollout(pinning, hostSocket, index));
        NodeAgentConfig config = NodeAgentConfigYaml.read(file(r));
        assertThat(config.pinning()).isEqualTo(pinning.wire());
        assertThat(config.nriSocket()).as("the path inside the agent container").isEqualTo(containerSocket);
        assertThat(config.nriPluginIndex()).isEqualTo(index);
        assertThat(config.nriPluginName()).as("the agent's default").isNull();

        PodSpec pod = r.daemonSet().getSpec().getTemplate().getSpec();
        Map<String, VolumeMount> mounts = pod.getContainers().getFirst().getVolumeMounts().stream()
                .collect(Collectors.toMap(VolumeMount::getMountPath, m -> m));
        Map<String, Volume> volumes = pod.getVolumes().stream().collect(Collectors.toMap(Volume::getName, v -> v));
        VolumeMount nri = mounts.get("/var/run/podnuma-nri");
        assertThat(nri).isNotNull();
        assertThat(nri.getReadOnly()).as("the agent only connects").isTrue();
        assertThat(volumes.get(nri.getName()).getHostPath().getPath())
                .as("the directory, not the socket: the runtime makes the socket later, or never")
                .isEqualTo(hostDir);
        assertThat(volumes.get(nri.getName()).getHostPath().getType())
                .as("a runtime with NRI off must not keep the pod from starting")
                .isEqualTo("DirectoryOrCreate");

        AgentConfig agent = loaded(r);
        assertThat(agent.pinning()).isEqualTo(agentMode);
        assertThat(agent.nri()).isEqualTo(new NriSettings(Path.of(containerSocket), "podnuma", index));
    }

    @Test
    void withCgroupNothingOfNriIsRenderedAndItsSettingsRollNoAgent() {
        RenderedAgent r = render(rollout(AgentPinning.CGROUP, AgentHostPaths.DEFAULT_NRI_SOCKET, "40"));
        NodeAgentConfig config = NodeAgentConfigYaml.read(file(r));
        assertThat(config.pinning()).isEqualTo("cgroup");
        assertThat(config.nriSocket()).isNull();
        assertThat(config.nriPluginIndex()).isNull();
        PodSpec pod = r.daemonSet().getSpec().getTemplate().getSpec();
        assertThat(pod.getVolumes())
                .extracting(Volume::getName)
                .containsExactly(
                        "config", "host-sys", "host-cgroup", "state", "pod-resources", "tmp", "kubelet-pod-resources");
        assertThat(pod.getContainers().getFirst().getVolumeMounts())
                .extracting(VolumeMount::getMountPath)
                .noneMatch(p -> p.contains("nri"));
        assertThat(pod.getVolumes())
                .noneMatch(v ->
                        v.getHostPath() != null && v.getHostPath().getPath().contains("nri"));

        RenderedAgent otherNri = render(rollout(AgentPinning.CGROUP, "/run/nri/other.sock", "90"));
        assertThat(otherNri).as("the agent never reads them").isEqualTo(r);

        assertThat(loaded(r).pinning()).isEqualTo(PinningMode.CGROUP);
    }

    @Test
    void theDefaultIsAutoAndEachPinningSettingIsANewFile() {
        RenderedAgent defaults = render(ROLLOUT);
        assertThat(ROLLOUT.pinning()).isEqualTo(AgentPinning.AUTO);
        assertThat(NodeAgentConfigYaml.read(file(defaults)).pinning()).isEqualTo("auto");
        assertThat(loaded(defaults).nri().socket()).isEqualTo(Path.of("/var/run/podnuma-nri/nri.sock"));
        for (AgentRollout changed : new AgentRollout[] {
            ROLLOUT.toBuilder().pinning(AgentPinning.NRI).build(),
            ROLLOUT.toBuilder().pinning(AgentPinning.CGROUP).build(),
            ROLLOUT.toBuilder().nriPluginIndex("41").build(),
            ROLLOUT.toBuilder()
                    .hostPaths(hostPaths(AgentHostPaths.DEFAULT_POD_RESOURCES_SOCKET, "/run/nri/nri-v2.sock"))
                    .build()
        }) {
            assertThat(render(changed).configHash())
                    .as(
                            "%s %s %s",
                            changed.pinning(),
                            changed.nriPluginIndex(),
                            changed.hostPaths().nriSocket())
                    .isNotEqualTo(defaults.configHash());
        }
    }

    static Stream<Arguments> badNriSockets() {
        return Stream.of(
                Arguments.of("/"),
                Arguments.of("/nri.sock"),
                Arguments.of("nri/nri.sock"),
                Arguments.of(""),
                Arguments.of("/var/run/nri/"),
                Arguments.of("/var/run/../nri/nri.sock"),
                Arguments.of("/var/run/./nri/nri.sock"),
                Arguments.of("/var/run//nri/nri.sock"),
                Arguments.of("/var/run/nri/" + "n".repeat(81)),
                Arguments.of("/" + "d".repeat(100) + "/nri.sock"));
    }

    @ParameterizedTest
    @MethodSource("badNriSockets")
    void aSocketPathThatCannotBeMountedIsRefused(String path) {
        assertThatThrownBy(() -> hostPaths(AgentHostPaths.DEFAULT_POD_RESOURCES_SOCKET, path))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("nriSocket '" + path + "': allowed an absolute path of a socket file in a directory other"
                        + " than /, without '.', '..' or empty segments, at most 107 bytes with a file name of at most"
                        + " 80 (e.g. /var/run/nri/nri.sock)");
        assertThat(AgentHostPaths.nriSocketProblem(path)).isPresent();
    }

    @Test
    void theNriSocketMayNotShareThePodResourcesDirectoryAndTheIndexIsTwoDigits() {
        assertThatThrownBy(() -> hostPaths("/run/podnuma/pr.sock", "/run/podnuma/nri.sock"))
                .hasMessage("nriSocket '/run/podnuma/nri.sock' and podResourcesSocket '/run/podnuma/pr.sock' are in one"
                        + " directory: allowed two different directories");
        for (String index : new String[] {"4", "100", "4a", "", " 4"}) {
            assertThatThrownBy(() -> ROLLOUT.toBuilder().nriPluginIndex(index).build())
                    .as(index)
                    .hasMessage("nriPluginIndex '" + index + "': allowed exactly two digits 00 to 99 (the runtime"
                            + " calls plugins in ascending order), e.g. 40");
        }
        assertThat(AgentHostPaths.nriSocketProblem("/run/nri/nri"))
                .as("no .sock needed")
                .isEmpty();
    }
}
