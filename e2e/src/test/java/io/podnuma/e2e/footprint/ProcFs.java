package io.podnuma.e2e.footprint;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What {@code /proc} says of a host process: its command line, resident set and start time, and the clock since boot. */
final class ProcFs {

    /** The kernel's USER_HZ, the unit of a process's start time: 100 on every Linux architecture this runs on. */
    static final long TICKS_PER_SECOND = 100;

    private ProcFs() {}

    /** The processes whose command line holds {@code argument} (one of its arguments, whole), oldest first. */
    static List<Long> running(String argument) throws IOException {
        List<Long> out = new java.util.ArrayList<>();
        try (var procs = Files.list(Path.of("/proc"))) {
            for (Path p : procs.toList()) {
                String name = p.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    if (cmdline(Long.parseLong(name)).contains(argument)) {
                        out.add(Long.parseLong(name));
                    }
                } catch (IOException e) {
                    // ended meanwhile, or a kernel thread
                }
            }
        }
        out.sort(java.util.Comparator.comparingDouble(pid -> {
            try {
                return startSeconds(pid);
            } catch (IOException e) {
                return Double.MAX_VALUE;
            }
        }));
        return out;
    }

    /** The CPUs the process's main thread may run on ({@code Cpus_allowed_list} of its status), e.g. {@code 0-1}. */
    static String cpusAllowed(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("Cpus_allowed_list:")) {
                return line.substring("Cpus_allowed_list:".length()).strip();
            }
        }
        throw new IOException("no Cpus_allowed_list line in /proc/" + pid + "/status");
    }

    /** Whether {@code file} is mapped into the process ({@code /proc/<pid>/maps}): an archive the JVM uses. */
    static boolean maps(long pid, String file) throws IOException {
        try (var lines = Files.lines(Path.of("/proc/" + pid + "/maps"))) {
            return lines.anyMatch(l -> l.endsWith(" " + file));
        }
    }

    /** {@code /proc/<pid>/cmdline}: the arguments the process was started with, the program first. */
    static List<String> cmdline(long pid) throws IOException {
        return cmdline(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")));
    }

    static List<String> cmdline(byte[] raw) {
        String text = new String(raw, StandardCharsets.UTF_8);
        if (text.endsWith("\0")) {
            text = text.substring(0, text.length() - 1);
        }
        return text.isEmpty() ? List.of() : Arrays.asList(text.split("\0", -1));
    }

    /**
     * A process's resident set from {@code /proc/<pid>/status}, in KiB: {@code VmRSS} and its anonymous and
     * file-backed parts ({@code RssAnon}, {@code RssFile}; {@code RssShmem} is the rest).
     */
    record Resident(long vmRssKib, long rssAnonKib, long rssFileKib) {}

    static Resident resident(long pid) throws IOException {
        return resident(Files.readString(Path.of("/proc/" + pid + "/status")));
    }

    static Resident resident(String status) throws IOException {
        return new Resident(kib(status, "VmRSS:"), kib(status, "RssAnon:"), kib(status, "RssFile:"));
    }

    private static long kib(String status, String key) throws IOException {
        for (String line : status.split("\n")) {
            if (line.startsWith(key)) {
                return Long.parseLong(line.substring(key.length()).strip().split("\\s+")[0]);
            }
        }
        throw new IOException("no " + key + " line in the status (a kernel thread, or a process that has exited)");
    }

    /** When the process started, in seconds since boot ({@code starttime}, field 22 of {@code /proc/<pid>/stat}). */
    static double startSeconds(long pid) throws IOException {
        return startSeconds(Files.readString(Path.of("/proc/" + pid + "/stat")));
    }

    /** The command name (field 2) may hold spaces and parentheses: fields are counted from the last {@code ')'}. */
    static double startSeconds(String stat) throws IOException {
        int close = stat.lastIndexOf(')');
        String[] f =
                close < 0 ? new String[0] : stat.substring(close + 1).strip().split("\\s+");
        if (f.length < 20) {
            throw new IOException("not a /proc/<pid>/stat line with 22 fields or more: " + stat);
        }
        return Long.parseLong(f[19]) / (double) TICKS_PER_SECOND;
    }

    /** Seconds since boot now ({@code /proc/uptime}), the clock {@link #startSeconds} is on. */
    static double uptimeSeconds() throws IOException {
        return Double.parseDouble(
                Files.readString(Path.of("/proc/uptime")).strip().split("\\s+")[0]);
    }

    /**
     * A thread's name, its CPU so far in nanoseconds and how long it waited runnable for a CPU: the first two fields
     * of {@code schedstat}, the scheduler's own account (the clock ticks of {@code stat} count a thread that ran for
     * 50 µs in a 10 ms tick as the whole tick). The wait tells a start slowed by a busy CPU from one blocked on I/O.
     */
    record ThreadCpu(String name, long nanos, long waitNanos) {

        ThreadCpu(String name, long nanos) {
            this(name, nanos, 0);
        }
    }

    /** Every thread of {@code pid} by thread id; a thread that ends while they are read is left out. */
    static Map<Long, ThreadCpu> threads(long pid) throws IOException {
        Map<Long, ThreadCpu> out = new TreeMap<>();
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    out.put(
                            Long.parseLong(task.getFileName().toString()),
                            threadCpu(
                                    Files.readString(task.resolve("stat")),
                                    Files.readString(task.resolve("schedstat"))));
                } catch (java.nio.file.NoSuchFileException e) {
                    // ended meanwhile
                }
            }
        }
        return out;
    }

    static ThreadCpu threadCpu(String stat, String schedstat) throws IOException {
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        if (open < 0 || close < open) {
            throw new IOException("not a /proc/<pid>/task/<tid>/stat line: " + stat);
        }
        String[] f = schedstat.strip().split("\\s+");
        if (f.length != 3) {
            throw new IOException("not a /proc/<pid>/task/<tid>/schedstat line (three numbers): " + schedstat);
        }
        return new ThreadCpu(stat.substring(open + 1, close), Long.parseLong(f[0]), Long.parseLong(f[1]));
    }
}
