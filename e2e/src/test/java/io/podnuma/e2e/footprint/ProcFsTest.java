package io.podnuma.e2e.footprint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProcFsTest {

    @Test
    void theCommandLineIsSplitAtNulBytes() {
        byte[] raw = "/opt/podnuma/jre/bin/java\0-Xmx64m\0-jar\0/opt/podnuma/node-agent.jar\0run\0"
                .getBytes(StandardCharsets.UTF_8);
        assertThat(ProcFs.cmdline(raw))
                .containsExactly("/opt/podnuma/jre/bin/java", "-Xmx64m", "-jar", "/opt/podnuma/node-agent.jar", "run");
        assertThat(ProcFs.cmdline(new byte[0])).isEmpty();
    }

    @Test
    void theResidentSetAndItsPartsAreReadInKib() throws IOException {
        String status = "Name:\tjava\nVmHWM:\t  140000 kB\nVmRSS:\t  131072 kB\nRssAnon:\t  102400 kB\n"
                + "RssFile:\t   28672 kB\nRssShmem:\t       0 kB\nThreads:\t20\n";
        assertThat(ProcFs.resident(status)).isEqualTo(new ProcFs.Resident(131_072L, 102_400L, 28_672L));
        assertThatThrownBy(() -> ProcFs.resident("Name:\tkthreadd\n"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("VmRSS");
    }

    @Test
    void theStartTimeIsField22InTicksEvenWithParenthesesInTheName() throws IOException {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime
        // priority nice threads itrealvalue starttime ...
        String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 50 7 0 0 20 0 21 0 123456 0 0";
        assertThat(ProcFs.startSeconds(stat)).isEqualTo(1234.56);
        assertThatThrownBy(() -> ProcFs.startSeconds("4242 (java) S 1")).isInstanceOf(IOException.class);
    }

    @Test
    void thisProcessIsFoundByItsArgumentsMapsItsRuntimeAndMayRunOnSomeCpus() throws IOException {
        long self = ProcessHandle.current().pid();
        List<String> args = ProcFs.cmdline(self);
        assertThat(ProcFs.running(args.get(0))).contains(self);
        assertThat(ProcFs.running("no-such-argument-" + self)).isEmpty();
        assertThat(ProcFs.maps(
                        self,
                        Path.of(System.getProperty("java.home"), "lib", "modules")
                                .toString()))
                .as("the JDK's modules image is mapped")
                .isTrue();
        assertThat(ProcFs.maps(self, "/no/such/file")).isFalse();
        assertThat(ProcFs.cpusAllowed(self)).matches("[0-9]+([-,][0-9]+)*");
    }
}
