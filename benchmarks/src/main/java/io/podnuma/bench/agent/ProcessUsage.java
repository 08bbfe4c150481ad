package io.podnuma.bench.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What a process costs the machine, read from {@code /proc/<pid>}: resident memory and CPU time used so far. */
public final class ProcessUsage {

    private ProcessUsage() {}

    /** {@code VmRSS} of {@code /proc/<pid>/status}, in KiB. */
    public static long rssKib(long pid) throws IOException {
        return rssKib(status(pid));
    }

    static long rssKib(String status) throws IOException {
        return statusKib(status, "VmRSS:");
    }

    /**
     * {@code RssAnon} of {@code /proc/<pid>/status}, in KiB: the resident memory no file backs (heap, metaspace, code,
     * stacks, malloc), which is what the process's memory cgroup is charged for and cannot reclaim without swap; the
     * rest of VmRSS is mapped files (the JVM's library, the class archives, the jar), clean pages shared with every
     * process mapping them and charged to whoever read them first.
     */
    public static long anonKib(long pid) throws IOException {
        return anonKib(status(pid));
    }

    static long anonKib(String status) throws IOException {
        return statusKib(status, "RssAnon:");
    }

    private static String status(long pid) throws IOException {
        return Files.readString(Path.of("/proc/" + pid + "/status"));
    }

    private static long statusKib(String status, String key) throws IOException {
        for (String line : status.split("\n")) {
            if (line.startsWith(key)) {
                return Long.parseLong(line.substring(key.length()).strip().split("\\s+")[0]);
            }
        }
        throw new IOException("the status text has no " + key.substring(0, key.length() - 1)
                + " line (a kernel thread or a process that has exited)");
    }

    /** User plus system CPU time in clock ticks ({@code utime + stime} of {@code /proc/<pid>/stat}). */
    public static long cpuTicks(long pid) throws IOException {
        return cpuTicks(Files.readString(Path.of("/proc/" + pid + "/stat")));
    }

    /**
     * The command name (field 2) is in parentheses and may hold spaces and parentheses itself, so the fields are
     * counted from the last {@code ')'}: after it come state (field 3) ... utime (14) and stime (15).
     */
    static long cpuTicks(String stat) throws IOException {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            throw new IOException("not a /proc/<pid>/stat line (no ')' after the command name): " + stat);
        }
        String[] f = stat.substring(close + 1).strip().split("\\s+");
        if (f.length < 13) {
            throw new IOException("a /proc/<pid>/stat line with " + (f.length + 2) + " fields, 15 or more expected");
        }
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** Clock ticks per second ({@code getconf CLK_TCK}); 100 on every Linux this runs on, asked anyway. */
    public static long ticksPerSecond() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            if (p.waitFor() == 0 && out.matches("[1-9][0-9]*")) {
                return Long.parseLong(out);
            }
        } catch (IOException e) {
            // getconf missing: fall through to the kernel's USER_HZ
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 100;
    }
}
