package io.podnuma.demo.pinning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CpusetSandboxTest {

    static final String UID = "0e5c2f1a-8d7b-4c3e-9f10-2a4b6c8d0e1f";
    static final String ID = "a".repeat(64);

    @Test
    void containerCgroupsFollowTheKubeletsCgroupfsLayoutAndContainerdsNames() {
        assertThat(CpusetSandbox.containerPath("Guaranteed", UID, "containerd://" + ID))
                .isEqualTo(Path.of("kubepods", "pod" + UID, ID));
        assertThat(CpusetSandbox.containerPath("Burstable", UID, "containerd://" + ID))
                .isEqualTo(Path.of("kubepods", "burstable", "pod" + UID, ID));
        assertThat(CpusetSandbox.containerPath("BestEffort", UID, "containerd://" + ID))
                .isEqualTo(Path.of("kubepods", "besteffort", "pod" + UID, ID));
    }

    @Test
    void otherRuntimesAndQosNamesAreRefusedWithTheValue() {
        assertThatThrownBy(() -> CpusetSandbox.containerPath("Guaranteed", UID, "cri-o://" + ID))
                .hasMessageContaining("cri-o://" + ID)
                .hasMessageContaining("containerd://");
        assertThatThrownBy(() -> CpusetSandbox.containerPath("Gold", UID, "containerd://" + ID))
                .hasMessageContaining("\"Gold\"");
    }
}
