package io.podnuma.agent.cgroup.watch;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerRuntime;
import io.podnuma.agent.engine.pod.PodQos;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CgroupTreeScannerTest {

    @TempDir
    Path root;

    private final Random random = new Random(7);

    @ParameterizedTest
    @EnumSource(CgroupDriver.class)
    void listsEveryContainerOfEveryQosAndRuntimeAndNothingElse(CgroupDriver driver) throws IOException {
        KubeletTree tree = new KubeletTree(root, driver, random);
        List<FoundContainer> expected = new ArrayList<>();
        for (PodQos qos : PodQos.values()) {
            String uid = tree.podUid();
            for (ContainerRuntime runtime : ContainerRuntime.values()) {
                ContainerCgroup c = tree.container(qos, uid, runtime);
                CgroupPath p = tree.mkdir(c);
                expected.add(new FoundContainer(c, p));
                tree.mkdirs(p.child("nested")); // a cgroup the workload made inside its container
            }
            tree.mkdirs(tree.naming.podPath(qos, uid).child("not-a-container"));
        }
        String staticPod = "6a0e1b0cbb2a4d7e8f9a0b1c2d3e4f5a"; // a static pod's UID: 32 hex digits
        ContainerCgroup mirror = tree.container(PodQos.GUARANTEED, staticPod, ContainerRuntime.CONTAINERD);
        expected.add(new FoundContainer(mirror, tree.mkdir(mirror)));
        tree.mkdirs(CgroupPath.parse(driver.kubepodsName() + "/unexpected"));
        tree.mkdirs(CgroupPath.parse("system.slice/containerd.service"));
        Files.writeString(root.resolve(driver.kubepodsName()).resolve("cpuset.cpus"), "0-1");
        expected.sort(Comparator.comparing(f -> f.path().toString()));

        assertThat(CgroupTreeScanner.scan(tree.layout)).containsExactlyElementsOf(expected);
    }

    @Test
    void noKubepodsYetIsAnEmptyList() throws IOException {
        KubeletTree tree = new KubeletTree(root, CgroupDriver.SYSTEMD, random);
        tree.mkdirs(CgroupPath.parse("kubepods")); // the other driver's name
        assertThat(CgroupTreeScanner.scan(tree.layout)).isEmpty();
    }

    /** Only names that can be containers are looked at, but a look still tells a directory from anything else. */
    @ParameterizedTest
    @EnumSource(CgroupDriver.class)
    void aPodDirectoryFullOfControlFilesYieldsOnlyItsContainerDirectories(CgroupDriver driver) throws IOException {
        KubeletTree tree = new KubeletTree(root, driver, random);
        String uid = tree.podUid();
        ContainerCgroup real = tree.container(PodQos.BURSTABLE, uid, ContainerRuntime.CONTAINERD);
        CgroupPath realPath = tree.mkdir(real);
        Path pod = tree.dir(realPath.parent());
        for (String file : List.of("cgroup.procs", "cpuset.cpus", "cpuset.mems", "tasks", "notify_on_release")) {
            Files.writeString(pod.resolve(file), "0");
        }
        // Named like containers, but a regular file and a symbolic link to a container directory: not containers.
        ContainerCgroup file = tree.container(PodQos.BURSTABLE, uid, ContainerRuntime.CRIO);
        Files.writeString(tree.dir(tree.path(file)), "");
        ContainerCgroup link = tree.container(PodQos.BURSTABLE, uid, ContainerRuntime.CONTAINERD);
        Files.createSymbolicLink(tree.dir(tree.path(link)), tree.dir(realPath));

        assertThat(CgroupTreeScanner.scan(tree.layout)).containsExactly(new FoundContainer(real, realPath));
    }
}
