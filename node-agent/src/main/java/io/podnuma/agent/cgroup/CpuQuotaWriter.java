package io.podnuma.agent.cgroup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns CFS quota off for a container that owns its CPUs exclusively: a quota would throttle it on
 * CPUs nobody else may use. v1: {@code cpu.cfs_quota_us = -1} in the cpu hierarchy; v2:
 * {@code cpu.max = max} (the period stays).
 */
public final class CpuQuotaWriter {

    private final CgroupLayout layout;
    private final CgroupFiles files;

    public CpuQuotaWriter(CgroupLayout layout, CgroupFiles files) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.files = Objects.requireNonNull(files, "files");
    }

    /** @return the write made, or empty when the quota was already off */
    public Optional<CgroupWrite> removeQuota(CgroupPath container) throws CgroupWriteException {
        boolean v1 = layout.version() == CgroupVersion.V1;
        WritableCgroupFile quota = v1 ? WritableCgroupFile.CPU_CFS_QUOTA_US : WritableCgroupFile.CPU_MAX;
        Path dir = container.in(layout.cpuRoot());
        Path file = dir.resolve(quota.fileName());
        String current;
        try {
            current = files.read(file).strip();
        } catch (IOException e) {
            throw new CgroupWriteException(file, "cannot read " + file + ": " + CpusetWriter.kernelText(e), e);
        }
        boolean off = v1 ? current.equals("-1") : current.split("\\s+")[0].equals("max");
        if (off) {
            return Optional.empty();
        }
        CgroupWrite w = new CgroupWrite(dir, quota, v1 ? "-1" : "max");
        try {
            files.write(w);
        } catch (IOException e) {
            throw new CgroupWriteException(
                    file,
                    "writing \"" + w.value() + "\" to " + file + " (now \"" + current + "\") failed: "
                            + CpusetWriter.kernelText(e),
                    e);
        }
        return Optional.of(w);
    }
}
