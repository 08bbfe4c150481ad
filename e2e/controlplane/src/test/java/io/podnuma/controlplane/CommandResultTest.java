package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CommandResultTest {

    @Test
    void successReturnsItself() {
        CommandResult ok = new CommandResult(0, "out", "");
        assertThat(ok.assertSuccess()).isSameAs(ok);
        assertThatThrownBy(ok::assertFailure).isInstanceOf(AssertionError.class).hasMessageContaining("out");
    }

    @Test
    void failureNamesExitCodeAndBothStreams() {
        CommandResult failed = new CommandResult(3, "partial", "Error from server (Forbidden)");
        assertThatThrownBy(failed::assertSuccess)
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("exit code 0 but was 3")
                .hasMessageContaining("partial")
                .hasMessageContaining("Error from server (Forbidden)");
        assertThat(failed.assertFailure()).isSameAs(failed);
    }

    @Test
    void outputJoinsStreamsSkippingEmptyOnes() {
        assertThat(new CommandResult(0, "a", "").output()).isEqualTo("a");
        assertThat(new CommandResult(0, "", "b").output()).isEqualTo("b");
        assertThat(new CommandResult(0, "a", "b").output()).isEqualTo("a" + System.lineSeparator() + "b");
    }

    @Test
    void commandsCaptureExitCodeStdoutStderrAndStdin() {
        CommandResult result = Commands.run(
                java.util.List.of("sh", "-c", "read line; echo \"got $line\"; echo oops >&2; exit 7"),
                java.util.Map.of(),
                "hello\n",
                Commands.DEFAULT_TIMEOUT);
        assertThat(result.exitCode()).isEqualTo(7);
        assertThat(result.stdout()).isEqualTo("got hello\n");
        assertThat(result.stderr()).isEqualTo("oops\n");
    }

    @Test
    void commandsKillWhatOutlivesItsTimeout() {
        CommandResult result = Commands.run(
                java.util.List.of("sleep", "30"), java.util.Map.of(), null, java.time.Duration.ofMillis(200));
        assertThat(result.exitCode()).isEqualTo(124);
        assertThat(result.stderr()).contains("killed after PT0.2S");
    }
}
