package io.podnuma.agent.runtime;

import io.podnuma.agent.cgroup.CgroupFiles;
import io.podnuma.agent.cgroup.CgroupLayout;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupWriteException;
import io.podnuma.agent.cgroup.CpuQuotaWriter;
import io.podnuma.agent.cgroup.CpusetWriter;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.runtime.core.Pin;
import io.podnuma.agent.runtime.core.PinWriter;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/** {@link PinWriter} on the host's cgroup files (v1 or v2, any naming). */
public final class CgroupPinWriter implements PinWriter {

    private final CgroupLayout layout;
    private final CgroupFiles files;
    private final CpusetWriter cpusets;
    private final CpuQuotaWriter quotas;

    public CgroupPinWriter(CgroupLayout layout, CgroupFiles files) {
        this.layout = layout;
        this.files = files;
        this.cpusets = new CpusetWriter(layout, files);
        this.quotas = new CpuQuotaWriter(layout, files);
    }

    @Override
    public boolean apply(CgroupPath container, Pin pin) throws CgroupWriteException {
        return !cpusets.apply(container, pin.cpus(), pin.mems()).isEmpty();
    }

    @Override
    public Optional<Pin> read(CgroupPath container) throws CgroupWriteException {
        Path dir = container.in(layout.cpusetRoot());
        // Read first, look at the directory only when a file is missing: the reconcile tick reads every container,
        // and a stat per container just to learn that it is still there is one system call in three.
        try {
            return Optional.of(new Pin(set(dir.resolve("cpuset.cpus")), set(dir.resolve("cpuset.mems"))));
        } catch (NoSuchFileException e) {
            if (files.isDirectory(dir)) {
                // v2 before its parent passes cpuset down: no cpuset files yet, it runs on everything the parent has.
                return Optional.of(new Pin(CpuSet.empty(), CpuSet.empty()));
            }
            return Optional.empty(); // no such container cgroup (any more)
        }
    }

    @Override
    public void removeQuota(CgroupPath container) throws CgroupWriteException {
        quotas.removeQuota(container);
    }

    private CpuSet set(Path file) throws CgroupWriteException, NoSuchFileException {
        try {
            return CpuSet.parse(files.read(file));
        } catch (NoSuchFileException e) {
            throw e;
        } catch (IOException e) {
            throw new CgroupWriteException(file, "cannot read " + file + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new CgroupWriteException(file, file + ": " + e.getMessage(), e);
        }
    }
}
