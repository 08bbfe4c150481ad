package io.podnuma.agent.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.agent.testing.Seeds;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CgroupNamingTest {

    private static final String UID = "0c3e8f2a-5b1d-4e6f-9a7b-1c2d3e4f5a6b";
    private static final String ID = "4f1b2c3d4e5f60718293a4b5c6d7e8f90123456789abcdef0123456789abcdef";
    private static final CgroupNaming CGROUPFS = new CgroupNaming(CgroupDriver.CGROUPFS);
    private static final CgroupNaming SYSTEMD = new CgroupNaming(CgroupDriver.SYSTEMD);

    private static ContainerCgroup container(PodQos qos, String runtimeScheme) {
        return new ContainerCgroup(qos, UID, ContainerId.parse(runtimeScheme + "://" + ID));
    }

    @Test
    void cgroupfsPaths() {
        assertThat(CGROUPFS.containerPath(container(PodQos.GUARANTEED, "containerd")))
                .hasToString("/kubepods/pod" + UID + "/" + ID);
        assertThat(CGROUPFS.containerPath(container(PodQos.BURSTABLE, "containerd")))
                .hasToString("/kubepods/burstable/pod" + UID + "/" + ID);
        assertThat(CGROUPFS.containerPath(container(PodQos.BEST_EFFORT, "cri-o")))
                .hasToString("/kubepods/besteffort/pod" + UID + "/crio-" + ID);
    }

    @Test
    void systemdPaths() {
        String u = UID.replace('-', '_');
        assertThat(SYSTEMD.containerPath(container(PodQos.GUARANTEED, "containerd")))
                .hasToString("/kubepods.slice/kubepods-pod" + u + ".slice/cri-containerd-" + ID + ".scope");
        assertThat(SYSTEMD.containerPath(container(PodQos.BURSTABLE, "containerd")))
                .hasToString("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" + u
                        + ".slice/cri-containerd-" + ID + ".scope");
        assertThat(SYSTEMD.containerPath(container(PodQos.BEST_EFFORT, "cri-o")))
                .hasToString("/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" + u + ".slice/crio-"
                        + ID + ".scope");
    }

    @Test
    void everyContainerPathParsesBack() {
        String staticPodUid = "6a0e1b0cbb2a4d7e8f9a0b1c2d3e4f5a";
        for (CgroupDriver driver : CgroupDriver.values()) {
            CgroupNaming naming = new CgroupNaming(driver);
            for (ContainerRuntime runtime : ContainerRuntime.values()) {
                for (PodQos qos : PodQos.values()) {
                    for (String uid : List.of(UID, staticPodUid)) {
                        ContainerCgroup c = new ContainerCgroup(qos, uid, new ContainerId(runtime, ID));
                        CgroupPath path = naming.containerPath(c);
                        assertThat(naming.parse(path)).as(path.toString()).contains(c);
                        assertThat(naming.parse(path.parent())).as("pod level").isEmpty();
                        assertThat(naming.parse(path.child("inner")))
                                .as("inside a container")
                                .isEmpty();
                    }
                }
            }
        }
    }

    @Test
    void pathsThatAreNoContainerAreEmpty() {
        for (String p : List.of(
                "",
                "system.slice/containerd.service",
                "kubepods",
                "kubepods/burstable",
                "kubepods/besteffort",
                "user.slice/user-0.slice")) {
            assertThat(CGROUPFS.parse(CgroupPath.parse(p))).as(p).isEmpty();
        }
        assertThat(SYSTEMD.parse(CgroupPath.parse("kubepods.slice/kubepods-burstable.slice")))
                .isEmpty();
        assertThat(SYSTEMD.parse(CgroupPath.parse("kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod"
                        + UID.replace('-', '_') + ".slice/crio-conmon-" + ID + ".scope")))
                .isEmpty();
        // the other driver's names are outside this driver's kubepods
        assertThat(CGROUPFS.parse(SYSTEMD.containerPath(container(PodQos.GUARANTEED, "containerd"))))
                .isEmpty();
    }

    @Test
    void parsesAWatchedDirectoryBelowTheHierarchy() {
        Path root = Path.of("/sys/fs/cgroup/cpuset");
        Path seen = root.resolve("kubepods/burstable/pod" + UID + "/" + ID);
        assertThat(CGROUPFS.parse(CgroupPath.relativize(root, seen)))
                .contains(container(PodQos.BURSTABLE, "containerd"));
        assertThatThrownBy(() -> CgroupPath.relativize(root, Path.of("/sys/fs/cgroup/memory/kubepods")))
                .isInstanceOf(InvalidCgroupNameException.class)
                .hasMessageContaining("is not below the cgroup hierarchy /sys/fs/cgroup/cpuset");
    }

    @Test
    void malformedNamesAreClearErrors() {
        assertThatThrownBy(() -> CGROUPFS.parse(CgroupPath.parse("kubepods/burstable/podXYZ/" + ID)))
                .isInstanceOf(InvalidCgroupNameException.class)
                .hasMessageContaining("pod UID \"XYZ\" has 3 characters");
        assertThatThrownBy(() -> CGROUPFS.parse(CgroupPath.parse("kubepods/burstable/pod" + UID + "/abc")))
                .isInstanceOf(InvalidCgroupNameException.class)
                .hasMessageContaining(
                        "container ID \"abc\" has 3 characters: expected exactly 64 lowercase hexadecimal digits");
        assertThatThrownBy(() -> CGROUPFS.parse(CgroupPath.parse("kubepods/guaranteed")))
                .isInstanceOf(InvalidCgroupNameException.class)
                .hasMessageContaining("segment \"guaranteed\" is not burstable, besteffort or pod<uid>");
        assertThatThrownBy(() -> SYSTEMD.parse(CgroupPath.parse(
                        "kubepods.slice/kubepods-pod" + UID.replace('-', '_') + ".slice/docker-" + ID + ".scope")))
                .isInstanceOf(InvalidCgroupNameException.class)
                .hasMessageContaining("is not cri-containerd-<64 hex digits>.scope or crio-<64 hex digits>.scope");
        assertThatThrownBy(() -> SYSTEMD.parse(CgroupPath.parse("kubepods.slice/kubepods-pod" + UID + ".slice")))
                .isInstanceOf(InvalidCgroupNameException.class)
                .hasMessageContaining("is not kubepods-pod<uid with every - written as _>.slice");
        assertThatThrownBy(() -> ContainerId.parse("docker://" + ID))
                .isInstanceOf(InvalidCgroupNameException.class)
                .hasMessageContaining(
                        "runtime \"docker\", which is not supported: allowed runtimes are containerd and cri-o");
        assertThatThrownBy(() -> ContainerId.parse(ID))
                .isInstanceOf(InvalidCgroupNameException.class)
                .hasMessageContaining("has no runtime scheme");
        assertThatThrownBy(() -> ContainerId.parse("containerd://" + ID.toUpperCase()))
                .isInstanceOf(InvalidCgroupNameException.class)
                .hasMessageContaining("has \"F\" at position 1: expected exactly 64 lowercase hexadecimal digits");
        assertThatThrownBy(() -> CgroupPath.parse("kubepods/../etc"))
                .isInstanceOf(InvalidCgroupNameException.class)
                .hasMessageContaining("\"..\"");
        assertThatThrownBy(() -> CgroupDriver.fromSetting("cgroupfs2"))
                .hasMessageContaining("allowed values are cgroupfs and systemd");
        assertThat(ContainerRuntime.fromRuntimeVersion("cri-o://1.30.2")).isEqualTo(ContainerRuntime.CRIO);
    }

    /**
     * Random damage to valid names and random text: either a container, "not a container", or an
     * {@link InvalidCgroupNameException} with a message; never another exception.
     */
    @Test
    void fuzzedInputGivesAResultOrAClearError() {
        long seed = Seeds.announce(getClass().getSimpleName());
        Random rnd = new Random(seed);
        String alphabet = "0123456789abcdefABCDEF-_./:podkubesliceburstable \t\n\u0000é";
        int errors = 0;
        for (int i = 0; i < 20_000; i++) {
            CgroupNaming naming = rnd.nextBoolean() ? CGROUPFS : SYSTEMD;
            String valid = naming.containerPath(
                            container(PodQos.values()[rnd.nextInt(3)], rnd.nextBoolean() ? "containerd" : "cri-o"))
                    .toString();
            StringBuilder b = new StringBuilder(rnd.nextInt(4) == 0 ? "" : valid);
            for (int k = 0, n = 1 + rnd.nextInt(4); k < n; k++) {
                int op = rnd.nextInt(3);
                int at = b.isEmpty() ? 0 : rnd.nextInt(b.length());
                char c = alphabet.charAt(rnd.nextInt(alphabet.length()));
                if (op == 0 || b.isEmpty()) {
                    b.insert(at, c);
                } else if (op == 1) {
                    b.deleteCharAt(at);
                } else {
                    b.setCharAt(at, c);
                }
            }
            String input = b.toString();
            try {
                Optional<ContainerCgroup> r = naming.parse(CgroupPath.parse(input));
                r.ifPresent(c -> assertThat(naming.containerPath(c))
                        .as("seed " + seed + ", input " + input)
                        .isEqualTo(CgroupPath.parse(input)));
            } catch (InvalidCgroupNameException e) {
                assertThat(e.getMessage()).as(input).isNotBlank();
                errors++;
            } catch (RuntimeException e) {
                fail("seed " + seed + ": input \"" + input + "\" threw " + e, e);
            }
            try {
                ContainerId.parse(input.replace("/", "://"));
            } catch (InvalidCgroupNameException e) {
                assertThat(e.getMessage()).isNotBlank();
            } catch (RuntimeException e) {
                fail("seed " + seed + ": container ID \"" + input + "\" threw " + e, e);
            }
        }
        System.out.println("CgroupNamingTest seed " + seed + ": " + errors + " of 20000 inputs were clear errors");
        assertThat(errors).isPositive();
    }
}
