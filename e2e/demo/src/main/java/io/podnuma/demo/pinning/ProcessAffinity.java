package io.podnuma.demo.pinning;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the kernel lets a process use: {@code Cpus_allowed_list} and {@code Mems_allowed_list} of
 * {@code /proc/<pid>/status}. This is the proof that a cpuset write reached the process, whatever the cgroup files say.
 */
public record ProcessAffinity(CpuList cpus, CpuList mems) {

    public static ProcessAffinity of(long pid) throws IOException {
        Path status = Path.of("/proc/" + pid + "/status");
        String cpus = null;
        String mems = null;
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("Cpus_allowed_list:")) {
                cpus = line.substring(line.indexOf(':') + 1);
            } else if (line.startsWith("Mems_allowed_list:")) {
                mems = line.substring(line.indexOf(':') + 1);
            }
        }
        if (cpus == null || mems == null) {
            throw new IOException(status + " has no Cpus_allowed_list or Mems_allowed_list");
        }
        return new ProcessAffinity(CpuList.parse(cpus), CpuList.parse(mems));
    }
}
