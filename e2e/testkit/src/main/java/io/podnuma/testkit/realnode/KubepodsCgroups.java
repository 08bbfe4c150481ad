package io.podnuma.testkit.realnode;

import io.podnuma.testkit.cpu.CpuList;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The container cgroups the real kubelet and containerd made in the cgroup v1 cpuset hierarchy (cgroupfs driver):
 * {@code kubepods[/burstable|/besteffort]/pod<uid>/<64-hex id>}, the pod's containers and its sandbox alike. Read as
 * they are at one instant; a cgroup removed meanwhile is simply absent.
 */
public final class KubepodsCgroups {

    /** The cpuset hierarchy's kubepods root on this host. */
    public static final Path ROOT = Path.of("/sys/fs/cgroup/cpuset/kubepods");

    private static final Pattern CONTAINER_ID = Pattern.compile("[0-9a-f]{64}");
    private static final List<String> QOS_DIRS = List.of("", "burstable", "besteffort");

    private KubepodsCgroups() {}

    /** One container's (or sandbox's) cgroup: its pod's UID, the runtime's container ID, its directory. */
    public record ContainerCgroup(String podUid, String containerId, Path dir) {

        /** Its {@code cpuset.cpus}. */
        public CpuList cpuset() throws IOException {
            return CpuList.parse(Files.readString(dir.resolve("cpuset.cpus")).strip());
        }

        /** The process IDs in it ({@code cgroup.procs}). */
        public List<Long> pids() throws IOException {
            List<Long> out = new ArrayList<>();
            for (String line : Files.readAllLines(dir.resolve("cgroup.procs"))) {
                if (!line.isBlank()) {
                    out.add(Long.parseLong(line.strip()));
                }
            }
            return out;
        }
    }

    /** Every container cgroup under {@link #ROOT}. */
    public static List<ContainerCgroup> list() {
        return list(ROOT);
    }

    /** Every container cgroup under {@code root} (a kubepods directory). */
    public static List<ContainerCgroup> list(Path root) {
        List<ContainerCgroup> out = new ArrayList<>();
        for (String qos : QOS_DIRS) {
            Path parent = qos.isEmpty() ? root : root.resolve(qos);
            for (Path pod : children(parent)) {
                String podDir = pod.getFileName().toString();
                if (!podDir.startsWith("pod")) {
                    continue;
                }
                for (Path c : children(pod)) {
                    if (CONTAINER_ID.matcher(c.getFileName().toString()).matches()) {
                        out.add(new ContainerCgroup(
                                podDir.substring(3), c.getFileName().toString(), c));
                    }
                }
            }
        }
        return out;
    }

    private static List<Path> children(Path dir) {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, Files::isDirectory)) {
            ds.forEach(out::add);
        } catch (NoSuchFileException gone) {
            // removed between the listing and the read (a pod or container ending)
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        return out;
    }
}
