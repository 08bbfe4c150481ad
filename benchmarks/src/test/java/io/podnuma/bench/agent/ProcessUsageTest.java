package io.podnuma.bench.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class ProcessUsageTest {

    @Test
    void cpuTicksCountFromTheLastParenthesis() throws IOException {
        // A command name with a space and a parenthesis; utime 1234, stime 567.
        String stat = "4242 (java (agent) x) S 1 4242 4242 0 -1 4194560 2000 0 3 0 1234 567 0 0 20 0 30 0 100 "
                + "2000000000 20000 18446744073709551615 1 1 0 0 0 0 0 4096 17663 0 0 0 17 1 0 0 0 0 0";
        assertThat(ProcessUsage.cpuTicks(stat)).isEqualTo(1234 + 567);
    }

    @Test
    void badStatLinesNameWhatIsWrong() {
        assertThatThrownBy(() -> ProcessUsage.cpuTicks("4242 java S 1"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("no ')'");
        assertThatThrownBy(() -> ProcessUsage.cpuTicks("4242 (java) S 1 2"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("15 or more expected");
    }

    @Test
    void rssFromTheStatusText() throws IOException {
        assertThat(ProcessUsage.rssKib("Name:\tjava\nVmPeak:\t 9 kB\nVmRSS:\t   81234 kB\nThreads:\t20\n"))
                .isEqualTo(81234);
        assertThatThrownBy(() -> ProcessUsage.rssKib("Name:\tkthreadd\n")).hasMessageContaining("no VmRSS");
    }

    @Test
    void anonymousPartFromTheStatusText() throws IOException {
        String status = "Name:\tjava\nVmRSS:\t  130000 kB\nRssAnon:\t   98000 kB\nRssFile:\t   32000 kB\n";
        assertThat(ProcessUsage.anonKib(status)).isEqualTo(98000);
        assertThat(ProcessUsage.rssKib(status)).isEqualTo(130000);
        assertThatThrownBy(() -> ProcessUsage.anonKib("Name:\tkthreadd\nVmRSS:\t 1 kB\n"))
                .hasMessageContaining("no RssAnon");
    }

    @Test
    void thisProcessIsReadable() throws IOException {
        long pid = ProcessHandle.current().pid();
        assertThat(ProcessUsage.rssKib(pid)).isPositive();
        assertThat(ProcessUsage.anonKib(pid)).isPositive().isLessThanOrEqualTo(ProcessUsage.rssKib(pid));
        assertThat(ProcessUsage.cpuTicks(pid)).isPositive(); // a JVM that ran tests has used CPU
        assertThat(ProcessUsage.ticksPerSecond()).isPositive();
    }
}
