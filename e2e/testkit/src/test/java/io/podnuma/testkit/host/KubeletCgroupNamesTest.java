package io.podnuma.testkit.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The names against the layout the real kubelet v1.37 and containerd v2.4 made on this machine's node
 * (BUILD-NOTES "What the real kubelet/containerd create"), and the kubelet's systemd slice names.
 */
class KubeletCgroupNamesTest {

    static final String UID = "0e5c2f1a-8d7b-4c3e-9f10-2a4b6c8d0e1f";
    static final String ID = "a".repeat(64);

    static PodContainer container(QosClass qos) {
        return PodContainer.fromStatus(qos, UID, "containerd://" + ID);
    }

    @Test
    void cgroupfsContainerCgroupsAreThoseTheRealNodeShowed() {
        assertThat(KubeletCgroupNames.container(CgroupDriverName.CGROUPFS, container(QosClass.GUARANTEED)))
                .isEqualTo(Path.of("kubepods", "pod" + UID, ID));
        assertThat(KubeletCgroupNames.container(CgroupDriverName.CGROUPFS, container(QosClass.BURSTABLE)))
                .isEqualTo(Path.of("kubepods", "burstable", "pod" + UID, ID));
        assertThat(KubeletCgroupNames.container(CgroupDriverName.CGROUPFS, container(QosClass.BEST_EFFORT)))
                .isEqualTo(Path.of("kubepods", "besteffort", "pod" + UID, ID));
    }

    @Test
    void systemdSlicesNameTheirParentsAndWriteTheUidsDashesAsUnderscores() {
        String escaped = "0e5c2f1a_8d7b_4c3e_9f10_2a4b6c8d0e1f";
        assertThat(KubeletCgroupNames.container(CgroupDriverName.SYSTEMD, container(QosClass.GUARANTEED)))
                .isEqualTo(Path.of(
                        "kubepods.slice", "kubepods-pod" + escaped + ".slice", "cri-containerd-" + ID + ".scope"));
        assertThat(KubeletCgroupNames.container(CgroupDriverName.SYSTEMD, container(QosClass.BURSTABLE)))
                .isEqualTo(Path.of(
                        "kubepods.slice",
                        "kubepods-burstable.slice",
                        "kubepods-burstable-pod" + escaped + ".slice",
                        "cri-containerd-" + ID + ".scope"));
        assertThat(KubeletCgroupNames.pod(CgroupDriverName.SYSTEMD, QosClass.BEST_EFFORT, UID))
                .isEqualTo(Path.of(
                        "kubepods.slice", "kubepods-besteffort.slice", "kubepods-besteffort-pod" + escaped + ".slice"));
    }

    @Test
    void containerNamesAreTellableFromPodAndQosNames() {
        assertThat(KubeletCgroupNames.isContainerName(CgroupDriverName.CGROUPFS, ID))
                .isTrue();
        assertThat(KubeletCgroupNames.isContainerName(CgroupDriverName.CGROUPFS, "pod" + UID))
                .isFalse();
        assertThat(KubeletCgroupNames.isContainerName(CgroupDriverName.CGROUPFS, "burstable"))
                .isFalse();
        assertThat(KubeletCgroupNames.isContainerName(CgroupDriverName.SYSTEMD, "cri-containerd-" + ID + ".scope"))
                .isTrue();
        assertThat(KubeletCgroupNames.isContainerName(CgroupDriverName.SYSTEMD, ID))
                .isFalse();
        assertThat(KubeletCgroupNames.isContainerName(CgroupDriverName.SYSTEMD, "kubepods-burstable.slice"))
                .isFalse();
    }

    @Test
    void otherRuntimesAndQosNamesAreRefusedWithTheValue() {
        assertThatThrownBy(() -> PodContainer.fromStatus(QosClass.GUARANTEED, UID, "cri-o://" + ID))
                .hasMessageContaining("cri-o://" + ID)
                .hasMessageContaining("containerd://");
        assertThatThrownBy(() -> QosClass.of("Gold")).hasMessageContaining("\"Gold\"");
        assertThatThrownBy(() -> new PodContainer(QosClass.BURSTABLE, UID, "abc"))
                .hasMessageContaining("\"abc\"");
        assertThat(container(QosClass.BURSTABLE).statusContainerId()).isEqualTo("containerd://" + ID);
    }
}
