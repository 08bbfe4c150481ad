package io.podnuma.agent.cgroup.partition;

import io.podnuma.agent.cgroup.CgroupFiles;
import io.podnuma.agent.cgroup.CgroupLayout;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupWrite;
import io.podnuma.agent.cgroup.CgroupWriteException;
import io.podnuma.agent.cgroup.WritableCgroupFile;
import io.podnuma.agent.engine.cpuset.CpuSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link PartitionFiles} on the host's cgroup v2 files, below the kubelet's top cgroup. */
public final class CgroupPartitionFiles implements PartitionFiles {

    /** kubepods, a QoS class, a pod, a container: partitions are never deeper. */
    private static final int SCAN_DEPTH = 3;

    private final CgroupLayout layout;
    private final CgroupFiles files;
    private final CgroupPath top;
    private final PartitionSupport support;

    /** @param procStatus the agent's {@code /proc/self/status}, for its capabilities */
    public CgroupPartitionFiles(CgroupLayout layout, CgroupFiles files, String procStatus) {
        this.layout = layout;
        this.files = files;
        this.top = new CgroupPath(List.of(layout.naming().driver().kubepodsName()));
        this.support = PartitionSupport.of(layout.version(), layout.cpusetRoot(), top, procStatus);
    }

    /** The partitions of this process, with its own capabilities. */
    public static CgroupPartitionFiles ofThisProcess(CgroupLayout layout, CgroupFiles files) {
        String status;
        try {
            status = Files.readString(Path.of("/proc/self/status"));
        } catch (IOException e) {
            status = ""; // read as no capability: the node then says it cannot, and why
        }
        return new CgroupPartitionFiles(layout, files, status);
    }

    @Override
    public PartitionSupport support() {
        return support;
    }

    @Override
    public Optional<PartitionState> read(CgroupPath dir) throws CgroupWriteException {
        Path at = dir.in(layout.cpusetRoot());
        try {
            return Optional.of(PartitionState.parse(
                    files.read(at.resolve("cpuset.cpus.partition")), files.read(at.resolve("cpuset.cpus.exclusive"))));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new CgroupWriteException(at, "cannot read the partition of " + at + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new CgroupWriteException(at, at + ": " + e.getMessage(), e);
        }
    }

    @Override
    public boolean write(PartitionStep step) throws CgroupWriteException {
        Path at = step.dir().in(layout.cpusetRoot());
        CgroupWrite write = switch (step) {
            case PartitionStep.Exclusive e ->
                new CgroupWrite(
                        at, WritableCgroupFile.CPUSET_CPUS_EXCLUSIVE, e.cpus().toString());
            case PartitionStep.Partition p ->
                new CgroupWrite(
                        at, WritableCgroupFile.CPUSET_CPUS_PARTITION, p.type().wire());
        };
        try {
            files.write(write);
            return true;
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            throw new CgroupWriteException(write.path(), "writing " + write + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public Found scan() throws CgroupWriteException {
        Map<CgroupPath, PartitionState> partitions = new HashMap<>();
        Map<CgroupPath, CpuSet> ancestors = new HashMap<>();
        walk(top, 0, partitions, ancestors);
        return new Found(partitions, ancestors);
    }

    private void walk(
            CgroupPath dir, int depth, Map<CgroupPath, PartitionState> partitions, Map<CgroupPath, CpuSet> ancestors)
            throws CgroupWriteException {
        Optional<PartitionState> state = read(dir);
        if (state.isEmpty()) {
            return;
        }
        if (state.get().type() != PartitionType.MEMBER) {
            partitions.put(dir, state.get());
        } else if (!state.get().exclusive().isEmpty()) {
            ancestors.put(dir, state.get().exclusive());
        }
        if (depth == SCAN_DEPTH) {
            return;
        }
        List<Path> children;
        try {
            children = files.childDirectories(dir.in(layout.cpusetRoot()));
        } catch (NoSuchFileException e) {
            return;
        } catch (IOException e) {
            throw new CgroupWriteException(
                    dir.in(layout.cpusetRoot()), "cannot list " + dir + ": " + e.getMessage(), e);
        }
        for (Path child : children) {
            walk(dir.child(child.getFileName().toString()), depth + 1, partitions, ancestors);
        }
    }
}
