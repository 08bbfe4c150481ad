package io.podnuma.agent.cgroup.watch;

import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupLayout;
import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupVersion;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.cgroup.ContainerRuntime;
import io.podnuma.agent.engine.pod.PodQos;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Random;
import java.util.UUID;

/** Makes directories as the kubelet and the runtimes name them, below a root that stands in for the hierarchy. */
final class KubeletTree {

    final Path root;
    final CgroupLayout layout;
    final CgroupNaming naming;
    private final Random random;

    KubeletTree(Path root, CgroupDriver driver, Random random) {
        this.root = root;
        this.naming = new CgroupNaming(driver);
        this.layout = new CgroupLayout(CgroupVersion.V1, root, root, naming);
        this.random = random;
    }

    ContainerCgroup container(PodQos qos, String podUid, ContainerRuntime runtime) {
        return new ContainerCgroup(qos, podUid, new ContainerId(runtime, hex64()));
    }

    String podUid() {
        return new UUID(random.nextLong(), random.nextLong()).toString();
    }

    CgroupPath path(ContainerCgroup c) {
        return naming.containerPath(c);
    }

    Path dir(CgroupPath p) {
        return p.in(root);
    }

    /** Creates the container's directory and any missing parent, one mkdir at a time (as the kubelet does). */
    CgroupPath mkdir(ContainerCgroup c) throws IOException {
        CgroupPath path = path(c);
        mkdirs(path);
        return path;
    }

    void mkdirs(CgroupPath path) throws IOException {
        CgroupPath p = CgroupPath.root();
        for (String s : path.segments()) {
            p = p.child(s);
            if (!Files.isDirectory(dir(p))) {
                Files.createDirectory(dir(p));
            }
        }
    }

    void rmdir(CgroupPath path) throws IOException {
        Files.delete(dir(path));
    }

    String hex64() {
        byte[] b = new byte[32];
        random.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    static PodQos anyQos(Random r) {
        return PodQos.values()[r.nextInt(PodQos.values().length)];
    }

    static ContainerRuntime anyRuntime(Random r) {
        return ContainerRuntime.values()[r.nextInt(ContainerRuntime.values().length)];
    }
}
