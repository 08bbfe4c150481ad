package io.podnuma.e2e.footprint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PodCgroupTest {

    private static final String UID = "0f3e6c1a-5b7d-4c2e-9a11-3d2b6f8e4c90";

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "Burstable, kubepods/burstable/pod" + UID,
        "BestEffort, kubepods/besteffort/pod" + UID,
        "Guaranteed, kubepods/pod" + UID,
    })
    void thePodsCgroupsAreNamedFromItsUidAndQosClassInBothHierarchies(String qos, String relative) {
        PodCgroup c = PodCgroup.of(Path.of("/sys/fs/cgroup"), pod(UID, qos));
        assertThat(c.memory()).isEqualTo(Path.of("/sys/fs/cgroup/memory").resolve(relative));
        assertThat(c.cpuacct()).isEqualTo(Path.of("/sys/fs/cgroup/cpuacct").resolve(relative));
    }

    @Test
    void aPodWithoutQosClassOrUidIsRefused() {
        assertThatThrownBy(() -> PodCgroup.of(Path.of("/sys/fs/cgroup"), pod(UID, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("qosClass");
        assertThatThrownBy(() -> PodCgroup.of(Path.of("/sys/fs/cgroup"), pod(null, "Burstable")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("UID");
    }

    @Test
    void theFilesAreReadFromThePodsCgroups(@TempDir Path root) throws Exception {
        PodCgroup c = PodCgroup.of(root, pod(UID, "Burstable"));
        Files.createDirectories(c.memory());
        Files.createDirectories(c.cpuacct());
        Files.writeString(c.memory().resolve("memory.usage_in_bytes"), "150000000\n");
        Files.writeString(
                c.memory().resolve("memory.stat"),
                "total_cache 44158976\ntotal_rss 101535744\ntotal_inactive_file 30670848\n");
        Files.writeString(c.cpuacct().resolve("cpuacct.usage"), "123456789\n");

        PodCgroup.MemoryReading m = c.memoryNow();
        assertThat(m.usageBytes()).isEqualTo(150_000_000L);
        assertThat(m.workingSetBytes()).isEqualTo(150_000_000L - 30_670_848L);
        assertThat(m.stat().totalRss()).isEqualTo(101_535_744L);
        assertThat(m.kmemBytes())
                .as("no memory.kmem.usage_in_bytes: a kernel without it")
                .isEmpty();
        assertThat(c.cpuNanos()).isEqualTo(123_456_789L);

        Files.writeString(c.memory().resolve("memory.kmem.usage_in_bytes"), "2260992\n");
        assertThat(c.memoryNow().kmemBytes()).contains(2_260_992L);
    }

    private static Pod pod(String uid, String qos) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("agent")
                .withUid(uid)
                .endMetadata()
                .withNewStatus()
                .withQosClass(qos)
                .endStatus()
                .build();
    }
}
