package io.podnuma.testkit.realnode;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.testkit.cpu.CpuList;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubepodsCgroupsTest {

    static final String A = "a".repeat(64);
    static final String B = "0123456789abcdef".repeat(4);
    static final String C = "c".repeat(64);

    @TempDir
    Path root;

    private void container(String parent, String id, String cpus, String procs) throws Exception {
        Path dir = Files.createDirectories(root.resolve(parent).resolve(id));
        Files.writeString(dir.resolve("cpuset.cpus"), cpus + "\n");
        Files.writeString(dir.resolve("cgroup.procs"), procs);
    }

    @Test
    void listsTheContainersOfEveryQosClassWithTheirPodUidAndSkipsWhatIsNoContainer() throws Exception {
        container("pod11111111-2222-3333-4444-555555555555", A, "1", "101\n");
        container("burstable/pod66666666-7777-8888-9999-000000000000", B, "0-1", "201\n202\n");
        container("besteffort/podabc", C, "0", "");
        // kubelet's own files and cgroups that name no container
        Files.createDirectories(root.resolve("burstable/pod66666666-7777-8888-9999-000000000000/not-a-container"));
        Files.createDirectories(root.resolve("burstable/notapod/" + A));
        Files.writeString(root.resolve("cpuset.cpus"), "0-1\n");

        List<KubepodsCgroups.ContainerCgroup> cs = KubepodsCgroups.list(root);

        assertThat(cs)
                .extracting(KubepodsCgroups.ContainerCgroup::podUid, KubepodsCgroups.ContainerCgroup::containerId)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("11111111-2222-3333-4444-555555555555", A),
                        org.assertj.core.groups.Tuple.tuple("66666666-7777-8888-9999-000000000000", B),
                        org.assertj.core.groups.Tuple.tuple("abc", C));
        KubepodsCgroups.ContainerCgroup b =
                cs.stream().filter(c -> c.containerId().equals(B)).findFirst().orElseThrow();
        assertThat(b.cpuset()).isEqualTo(CpuList.of(0, 1));
        assertThat(b.pids()).containsExactly(201L, 202L);
        KubepodsCgroups.ContainerCgroup c =
                cs.stream().filter(x -> x.containerId().equals(C)).findFirst().orElseThrow();
        assertThat(c.pids()).isEmpty();
    }

    @Test
    void aMissingHierarchyHasNoContainers() {
        assertThat(KubepodsCgroups.list(root.resolve("gone"))).isEmpty();
    }
}
