package io.podnuma.agent.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One agent per state directory: refused in this JVM and from another process, free again once the holder dies. */
class StateDirectoryLockTest {

    @TempDir
    Path dir;

    private static String held(Path state, long pid) {
        return "the state directory " + state + " is locked by another node agent, pid " + pid
                + " in its PID namespace (" + state.resolve("agent.lock") + "): two agents on one node would pin the"
                + " same containers; stop the other agent, or give this one a stateDir of its own";
    }

    @Test
    void theHolderWritesItsPidIntoAFileOnlyItsOwnerReads() throws Exception {
        Path state = dir.resolve("state");
        try (StateDirectoryLock ignored = StateDirectoryLock.acquire(state)) {
            Path file = state.resolve(StateDirectoryLock.FILE_NAME);
            assertThat(Files.readString(file)).isEqualTo(ProcessHandle.current().pid() + "\n");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                    .isEqualTo("rw-------");
        }
    }

    @Test
    void theFileStaysForTheNextAgentUnlessTheNodeLeftPodnuma() throws Exception {
        Path state = dir.resolve("state");
        Path file = state.resolve(StateDirectoryLock.FILE_NAME);
        StateDirectoryLock.acquire(state).close();
        assertThat(file).as("after a restart or a rolling update").exists();

        StateDirectoryLock leaving = StateDirectoryLock.acquire(state);
        leaving.removeOnRelease();
        leaving.close();
        assertThat(file).as("after the node left podnuma").doesNotExist();
        StateDirectoryLock.acquire(state).close();
        assertThat(file).as("made again by the next agent").exists();
    }

    @Test
    void aSecondLockInThisProcessIsRefusedAndTheFirstIsKept() throws Exception {
        Path state = Files.createDirectory(dir.resolve("state"));
        try (StateDirectoryLock first = StateDirectoryLock.acquire(state)) {
            assertThatThrownBy(() -> StateDirectoryLock.acquire(state))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage(held(state, ProcessHandle.current().pid()));
            assertThatThrownBy(() -> StateDirectoryLock.acquire(dir.resolve("./state")))
                    .as("another name of the same directory")
                    .hasMessageContaining("is locked by another node agent");
            // The refusals opened no second channel on the file, whose close would have dropped the lock (POSIX).
            assertThat(LockHolder.refusal(state))
                    .as("another process is refused after the refusals in this one")
                    .isEqualTo(held(state, ProcessHandle.current().pid()));
        }
        try (StateDirectoryLock again = StateDirectoryLock.acquire(state)) {
            assertThat(again).as("closed: free again in this process").isNotNull();
        }
    }

    @Test
    void anotherProcessHoldsItUntilKilledWithSigkillThenTheNextAgentTakesIt() throws Exception {
        Path state = Files.createDirectory(dir.resolve("state"));
        Path checkpoint = state.resolve(CheckpointStore.DEFAULT_FILE_NAME);
        byte[] bytes = "{\"kind\": \"podnuma.io/node-checkpoint\"}\n".getBytes(StandardCharsets.UTF_8);
        Files.write(checkpoint, bytes);
        try (LockHolder holder = LockHolder.start(state)) {
            assertThatThrownBy(() -> StateDirectoryLock.acquire(state))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage(held(state, holder.pid()));
            assertThat(Files.readAllBytes(checkpoint)).isEqualTo(bytes);
            assertThat(Files.readString(state.resolve(StateDirectoryLock.FILE_NAME)))
                    .as("the refused agent left the holder's pid in the file")
                    .isEqualTo(holder.pid() + "\n");

            assertThat(holder.kill9()).as("killed by SIGKILL: 128 + 9").isEqualTo(137);
        }
        try (StateDirectoryLock next = StateDirectoryLock.acquire(state)) {
            assertThat(Files.readString(state.resolve(StateDirectoryLock.FILE_NAME)))
                    .isEqualTo(ProcessHandle.current().pid() + "\n");
            assertThat(Files.readAllBytes(checkpoint)).isEqualTo(bytes);
        }
    }

    @Test
    void aHolderThatHasNotWrittenItsPidYetIsNamedAsSuch() {
        Path state = Path.of("/var/lib/podnuma");
        assertThat(StateDirectoryLock.heldMessage(state, state.resolve("agent.lock"), ""))
                .isEqualTo("the state directory /var/lib/podnuma is locked by another node agent, whose pid is not in"
                        + " /var/lib/podnuma/agent.lock yet: two agents on one node would pin the same containers;"
                        + " stop the other agent, or give this one a stateDir of its own");
    }

    @Test
    void aStateDirectoryThatCannotHoldTheLockIsNamed() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "");
        assertThatThrownBy(() -> StateDirectoryLock.acquire(file))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("cannot lock the state directory " + file + " through "
                        + file.resolve("agent.lock") + ": FileAlreadyExistsException: " + file)
                .hasMessageEndingWith("(the agent needs the directory writable, for its lock and its checkpoint)");
    }
}
