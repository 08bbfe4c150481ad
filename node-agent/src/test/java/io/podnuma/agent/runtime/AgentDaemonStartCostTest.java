package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class AgentDaemonStartCostTest {

    @Test
    void theLogSaysHowLongThisJvmHasRunAndTheCpuItUsedAsTheKernelCountsThem() {
        Matcher m = Pattern.compile("(\\d+) ms after the JVM started, (\\d+) ms of CPU")
                .matcher(AgentDaemon.sinceJvmStart());

        assertThat(m.matches()).as(AgentDaemon.sinceJvmStart()).isTrue();
        long age = Long.parseLong(m.group(1));
        long cpu = Long.parseLong(m.group(2));
        long jvmAge = System.currentTimeMillis()
                - ProcessHandle.current().info().startInstant().orElseThrow().toEpochMilli();
        // startInstant is whole seconds off at most; a test JVM has loaded classes, so it has used some CPU
        assertThat(age).isBetween(Math.max(0, jvmAge - 1500), jvmAge + 1500);
        assertThat(cpu).isPositive();
    }
}
