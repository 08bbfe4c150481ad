package io.podnuma.agent.cgroup;

import io.podnuma.agent.engine.cpuset.CpuSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Real files in a temporary directory with the cgroup v2 layout, plus the few kernel reactions the
 * writer depends on: enabling {@code +cpuset} in {@code cgroup.subtree_control} makes the children's
 * cpuset files appear, and a written list sets the effective list (clamped to the parent's, and the
 * parent's when nothing is left, as v2 does) of its cgroup and of the cgroups below it. Records every write.
 */
public final class V2KernelFiles implements CgroupFiles {

    private final HostCgroupFiles files;
    final List<CgroupWrite> writes = new ArrayList<>();
    final List<Path> reads = new ArrayList<>();

    /** @param layout the temporary tree's layout, which confines the writes as on a host */
    public V2KernelFiles(CgroupLayout layout) {
        this.files = new HostCgroupFiles(layout);
    }

    /**
     * Makes a cgroup as the kernel does on mkdir: with cpuset files (empty lists, the parent's effective ones) when
     * the parent passes cpuset down, and a populated {@code cgroup.events} (a process will join).
     */
    public static void mkdir(Path dir) throws IOException {
        Files.createDirectory(dir);
        Files.writeString(dir.resolve("cgroup.subtree_control"), "\n");
        Files.writeString(dir.resolve("cgroup.events"), "populated 1\nfrozen 0\n");
        Path parent = dir.getParent();
        if (Files.readString(parent.resolve("cgroup.subtree_control")).contains("cpuset")) {
            for (String list : List.of("cpus", "mems")) {
                Files.writeString(dir.resolve("cpuset." + list), "\n");
                Files.writeString(
                        dir.resolve("cpuset." + list + ".effective"),
                        Files.readString(parent.resolve("cpuset." + list + ".effective")));
            }
        }
    }

    @Override
    public String read(Path file) throws IOException {
        reads.add(file);
        return files.read(file);
    }

    @Override
    public void write(CgroupWrite write) throws IOException {
        files.write(write);
        writes.add(write);
        Path file = write.path();
        Path dir = write.cgroup();
        switch (write.file()) {
            case SUBTREE_CONTROL -> {
                Files.writeString(file, "cpuset\n");
                for (Path child : childDirectories(dir)) {
                    for (String list : List.of("cpus", "mems")) {
                        Files.writeString(child.resolve("cpuset." + list), "\n");
                        Files.writeString(
                                child.resolve("cpuset." + list + ".effective"),
                                Files.readString(dir.resolve("cpuset." + list + ".effective")));
                    }
                }
            }
            case CPUSET_CPUS, CPUSET_MEMS -> refreshEffective(dir, write.file().fileName());
            case CPU_CFS_QUOTA_US, CPU_MAX -> {}
        }
    }

    /**
     * The kernel's effective list of {@code dir} and of every cgroup below it that has the file: the configured list
     * clamped to the parent's effective one, the parent's when nothing is left or nothing is configured.
     */
    private void refreshEffective(Path dir, String list) throws IOException {
        CpuSet parent = CpuSet.parse(Files.readString(dir.getParent().resolve(list + ".effective")));
        CpuSet clamped = CpuSet.parse(Files.readString(dir.resolve(list))).intersection(parent);
        Files.writeString(dir.resolve(list + ".effective"), (clamped.isEmpty() ? parent : clamped) + "\n");
        for (Path child : childDirectories(dir)) {
            if (Files.exists(child.resolve(list))) {
                refreshEffective(child, list);
            }
        }
    }

    @Override
    public List<Path> childDirectories(Path dir) throws IOException {
        return files.childDirectories(dir);
    }

    @Override
    public boolean isDirectory(Path dir) {
        return files.isDirectory(dir);
    }
}
