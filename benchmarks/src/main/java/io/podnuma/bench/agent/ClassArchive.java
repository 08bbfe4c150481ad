package io.podnuma.bench.agent;

import java.nio.file.Path;
import java.util.List;

/** An archive of the agent's classes that a training run writes and the measured runs map. */
public enum ClassArchive {
    /** The JDK's ahead-of-time cache (JDK 24+: classes loaded and linked, method profiles), one-step training. */
    AOT_CACHE("agent.aot") {
        @Override
        List<String> trainingFlags(Path file) {
            return List.of("-XX:AOTCacheOutput=" + file);
        }

        /**
         * Mapped where it was dumped (the diagnostic {@code ArchiveRelocationMode=0}; the default since JDK 20 maps at
         * a random address and patches every pointer, which turns the archive's pages into private anonymous copies):
         * the archived classes then stay clean file pages. Measured with 110 pods (quick bench, one run): RssAnon 96 MiB
         * relocated, 74 MiB in place, VmRSS the same (130 MiB). The cost is the archive's fixed address (less address
         * randomisation); when that address is taken the JVM relocates anyway.
         */
        @Override
        List<String> runFlags(Path file) {
            return List.of("-XX:AOTCache=" + file, "-XX:+UnlockDiagnosticVMOptions", "-XX:ArchiveRelocationMode=0");
        }
    },
    /**
     * A dynamic CDS archive the JVM keeps itself: written at exit when missing or stale, mapped when valid (what a
     * DaemonSet can do with its state directory, no separate training step).
     */
    DYNAMIC_CDS("agent.jsa") {
        @Override
        List<String> trainingFlags(Path file) {
            return runFlags(file);
        }

        @Override
        List<String> runFlags(Path file) {
            return List.of("-XX:+AutoCreateSharedArchive", "-XX:SharedArchiveFile=" + file);
        }
    };

    private final String file;

    ClassArchive(String file) {
        this.file = file;
    }

    String file() {
        return file;
    }

    abstract List<String> trainingFlags(Path file);

    abstract List<String> runFlags(Path file);

    static boolean isArchiveFlag(String flag) {
        // the unlock goes with the relocation mode it is there for (the DaemonSet's flags have no diagnostic flag)
        return flag.startsWith("-XX:AOTCache")
                || flag.startsWith("-XX:ArchiveRelocationMode=")
                || flag.equals("-XX:+UnlockDiagnosticVMOptions")
                || flag.equals("-XX:+AutoCreateSharedArchive")
                || flag.startsWith("-XX:SharedArchiveFile=");
    }
}
