package io.podnuma.bench.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClassArchiveTest {

    private static final List<String> DAEMON_SET = List.of("-XX:+UseSerialGC", "-Xmx64m", "-XX:-UsePerfData");

    @Test
    void theAotCacheIsWrittenByOneRunAndReadByTheNext() {
        Path file = Path.of("/w/agent.aot");
        assertThat(ClassArchive.AOT_CACHE.trainingFlags(file)).containsExactly("-XX:AOTCacheOutput=/w/agent.aot");
        assertThat(ClassArchive.AOT_CACHE.runFlags(file))
                .containsExactly(
                        "-XX:AOTCache=/w/agent.aot",
                        "-XX:+UnlockDiagnosticVMOptions",
                        "-XX:ArchiveRelocationMode=0",
                        "-XX:-AOTReplayTraining");
    }

    @Test
    void theDynamicArchiveTakesTheSameFlagsToWriteAndToRead() {
        Path file = Path.of("/w/agent.jsa");
        assertThat(ClassArchive.DYNAMIC_CDS.trainingFlags(file))
                .isEqualTo(ClassArchive.DYNAMIC_CDS.runFlags(file))
                .containsExactly("-XX:+AutoCreateSharedArchive", "-XX:SharedArchiveFile=/w/agent.jsa");
    }

    @Test
    void theIdleJvmAndATrainingRunStartWithoutAnyArchive() {
        for (ClassArchive archive : ClassArchive.values()) {
            List<String> measured = new ArrayList<>(DAEMON_SET);
            measured.addAll(archive.runFlags(Path.of("/w/" + archive.file())));
            assertThat(AgentBench.withoutArchive(measured)).as("%s", archive).isEqualTo(DAEMON_SET);
        }
    }
}
