package io.podnuma.agent.cgroup.watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.engine.pod.PodQos;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PodContainerIdsTest {

    private static final String UID = "0c3e8f2a-5b1d-4e6f-9a7b-1c2d3e4f5a6b";
    private static final String INIT = "1".repeat(64);
    private static final String SIDECAR = "2".repeat(64);
    private static final String APP = "a".repeat(64);
    private static final String APP_BEFORE_RESTART = "b".repeat(64);
    private static final String DEBUG = "e".repeat(64);

    private static ContainerStatus status(String name, String containerId) {
        return new ContainerStatusBuilder()
                .withName(name)
                .withContainerID(containerId)
                .build();
    }

    private static Pod pod(List<ContainerStatus> init, List<ContainerStatus> app, List<ContainerStatus> ephemeral) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace("trading")
                .withName("engine-0")
                .withUid(UID)
                .endMetadata()
                .withNewStatus()
                .withInitContainerStatuses(init)
                .withContainerStatuses(app)
                .withEphemeralContainerStatuses(ephemeral)
                .endStatus()
                .build();
    }

    @Test
    void mapsEveryKindOfContainerBothWays() {
        ContainerStatus restarted = new ContainerStatusBuilder(status("app", "containerd://" + APP))
                .withNewLastState()
                .withNewTerminated()
                .withContainerID("containerd://" + APP_BEFORE_RESTART)
                .withExitCode(137)
                .endTerminated()
                .endLastState()
                .build();
        Pod pod = pod(
                List.of(status("setup", "containerd://" + INIT), status("proxy", "containerd://" + SIDECAR)),
                List.of(restarted, status("waiting", ""), status("pending", null)),
                List.of(status("debugger", "containerd://" + DEBUG)));

        PodContainerIds ids = PodContainerIds.of(pod);

        assertThat(ids.podUid()).isEqualTo(UID);
        assertThat(ids.current())
                .isEqualTo(Map.of(
                        "setup", ContainerId.parse("containerd://" + INIT),
                        "proxy", ContainerId.parse("containerd://" + SIDECAR),
                        "app", ContainerId.parse("containerd://" + APP),
                        "debugger", ContainerId.parse("containerd://" + DEBUG)));
        assertThat(ids.nameOf(ContainerId.parse("containerd://" + APP))).contains("app");
        assertThat(ids.nameOf(ContainerId.parse("containerd://" + APP_BEFORE_RESTART)))
                .as("the previous run")
                .contains("app");
        assertThat(ids.nameOf(ContainerId.parse("containerd://" + "f".repeat(64))))
                .as("not named yet")
                .isEmpty();
        assertThat(ids.idOf("waiting")).isEmpty();
        assertThat(ids.idOf("debugger")).contains(ContainerId.parse("containerd://" + DEBUG));
        assertThat(ids.problems()).isEmpty();
    }

    @Test
    void theIdFindsTheCgroupTheWatcherReports() {
        Pod pod = pod(List.of(), List.of(status("app", "cri-o://" + APP)), List.of());
        PodContainerIds ids = PodContainerIds.of(pod);
        CgroupNaming naming = new CgroupNaming(CgroupDriver.SYSTEMD);
        ContainerCgroup c = new ContainerCgroup(
                PodQos.BURSTABLE, ids.podUid(), ids.idOf("app").orElseThrow());
        CgroupPath path = naming.containerPath(c);
        assertThat(path.toString()).endsWith("/crio-" + APP + ".scope");
        assertThat(naming.parse(path).flatMap(found -> ids.nameOf(found.containerId())))
                .contains("app");
    }

    @Test
    void anIdOfAnotherRuntimeIsAProblemNamingThePodContainerAndValue() {
        Pod pod = pod(
                List.of(),
                List.of(status("app", "docker://" + APP), status("ok", "containerd://" + SIDECAR)),
                List.of());
        PodContainerIds ids = PodContainerIds.of(pod);
        assertThat(ids.current()).containsOnlyKeys("ok");
        assertThat(ids.problems())
                .singleElement()
                .asString()
                .startsWith("pod trading/engine-0 container app: container ID \"docker://")
                .contains("allowed runtimes are containerd and cri-o");
    }

    @Test
    void aPodWithoutStatusNamesNothingAndOneWithoutUidIsRefused() {
        Pod bare = new PodBuilder().withNewMetadata().withUid(UID).endMetadata().build();
        assertThat(PodContainerIds.of(bare).current()).isEmpty();
        Pod noUid = new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName("p")
                .endMetadata()
                .build();
        assertThatThrownBy(() -> PodContainerIds.of(noUid))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("pod ns/p has no metadata.uid: its cgroups cannot be named");
    }

    @Test
    void theIndexAnswersByPodUidAndForgetsRemovedPods() {
        ContainerNameIndex index = new ContainerNameIndex();
        ContainerId app = ContainerId.parse("containerd://" + APP);
        assertThat(index.nameOf(UID, app)).as("cgroup seen before the pod").isEmpty();
        index.update(pod(List.of(), List.of(status("app", "")), List.of()));
        assertThat(index.nameOf(UID, app)).as("status not yet naming it").isEmpty();
        index.update(pod(List.of(), List.of(status("app", app.toString())), List.of()));
        assertThat(index.nameOf(UID, app)).contains("app");
        assertThat(index.idOf(UID, "app")).contains(app);
        assertThat(index.nameOf("another-uid", app)).isEmpty();
        assertThat(index.get(UID)).map(PodContainerIds::podUid).isEqualTo(Optional.of(UID));
        index.remove(UID);
        assertThat(index.nameOf(UID, app)).isEmpty();
    }
}
