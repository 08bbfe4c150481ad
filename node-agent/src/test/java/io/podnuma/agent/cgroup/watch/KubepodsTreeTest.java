package io.podnuma.agent.cgroup.watch;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.cgroup.ContainerRuntime;
import io.podnuma.agent.engine.pod.PodQos;
import java.util.HexFormat;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class KubepodsTreeTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                // cgroup v1, cpuset hierarchy (what a pod directory holds there)
                "cgroup.clone_children",
                "cgroup.procs",
                "cpuset.cpus",
                "cpuset.effective_cpus",
                "cpuset.mems",
                "cpuset.memory_spread_page",
                "cpuset.sched_relax_domain_level",
                "notify_on_release",
                "tasks",
                "release_agent",
                // cgroup v2, unified hierarchy
                "cgroup.subtree_control",
                "cgroup.max.depth",
                "cpuset.cpus.exclusive.effective",
                "cpu.max.burst",
                "cpu.pressure",
                "memory.swap.max",
                "memory.oom.group",
                "io.bfq.weight",
                "hugetlb.2MB.rsvd.max",
                "hugetlb.1GB.limit_in_bytes",
                "rdma.max",
                "misc.current"
            })
    void theKernelsControlFilesAreToldByName(String name) {
        assertThat(KubepodsTree.isControlFile(name)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"nested", "cpuset", ".hidden", "trailing.", "with-dash.scope", "a b.c", ""})
    void otherNamesAreNot(String name) {
        assertThat(KubepodsTree.isControlFile(name)).isFalse();
    }

    /** The scanner skips control files unexamined: no name the kubelet or a runtime makes may look like one. */
    @ParameterizedTest
    @EnumSource(CgroupDriver.class)
    void noDirectoryTheKubeletOrARuntimeMakesBelowKubepodsLooksLikeAControlFile(CgroupDriver driver) {
        CgroupNaming naming = new CgroupNaming(driver);
        KubepodsTree tree = new KubepodsTree(naming);
        Random random = new Random(11);
        HexFormat hex = HexFormat.of();
        int containers = 0;
        for (int i = 0; i < 200; i++) {
            PodQos qos = PodQos.values()[i % PodQos.values().length];
            String uid = i % 2 == 0
                    ? new UUID(random.nextLong(), random.nextLong()).toString()
                    : hex.formatHex(randomBytes(random, 16)); // a static pod's UID
            ContainerRuntime runtime = ContainerRuntime.values()[i % ContainerRuntime.values().length];
            ContainerCgroup c =
                    new ContainerCgroup(qos, uid, new ContainerId(runtime, hex.formatHex(randomBytes(random, 32))));
            CgroupPath path = naming.containerPath(c);
            assertThat(tree.classify(path)).isEqualTo(new KubepodsTree.Container(c));
            containers++;
            // Every level below the root: kubepods is judged by the walk's start, not by name.
            for (int depth = 2; depth <= path.segments().size(); depth++) {
                String name = path.segments().get(depth - 1);
                assertThat(KubepodsTree.isControlFile(name))
                        .as("%s in %s", name, path)
                        .isFalse();
            }
        }
        assertThat(containers).isEqualTo(200);
    }

    private static byte[] randomBytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }
}
