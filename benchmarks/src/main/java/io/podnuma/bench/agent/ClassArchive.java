package io.podnuma.bench.agent;

import io.podnuma.testkit.agent.JvmFlags;
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

        /** Mapped in place, as the agent image maps its own ({@link JvmFlags#mappingAotCache}). */
        @Override
        List<String> runFlags(Path file) {
            return JvmFlags.mappingAotCache(file.toString());
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
}
