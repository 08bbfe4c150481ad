package io.podnuma.agent.badinput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.podnuma.agent.checkpoint.CheckpointStore;
import io.podnuma.agent.checkpoint.LockHolder;
import io.podnuma.agent.cli.Main;
import io.podnuma.agent.podresources.DeviceSource;
import io.podnuma.agent.podresources.PodResourcesEndpoint;
import io.podnuma.agent.podresources.PodResourcesService;
import io.podnuma.agent.podresources.SocketDirectory;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfigYaml;
import io.podnuma.podresources.DomainSocketChannels;
import io.podnuma.podresources.v1.ListPodResourcesRequest;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.badinput.BadInput;
import io.podnuma.testkit.badinput.BadInputDoc;
import io.podnuma.testkit.badinput.InputKind;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue's directories on the node: the state directory another agent holds (or a file where it should be),
 * fed to {@code node-agent run}, and the PodResources socket's directory in the modes and with the neighbours a node
 * gives it, fed to the agent's endpoint. Messages name the directories as the DaemonSet's (the state directory
 * {@code /var/lib/podnuma}, the socket's {@code /run/podnuma/pod-resources}), the holder's pid as 1234 and the
 * agent's uid as 0.
 */
class BadNodeDirectoryCasesTest {

    private static final InputKind KIND = InputKind.NODE_DIRECTORIES;
    private static final String STATE = "/var/lib/podnuma";
    private static final String SOCKET_DIR = "/run/podnuma/pod-resources";
    private static final String SOCKET = "podnuma.sock";
    private static final String RUN_KEPT = "the checkpoint byte for byte, and the first agent with its lock; the second"
            + " agent exits 1 before it asks the API server anything, reads the checkpoint or serves";
    private static final String SERVES = "the socket (0600) serves: List gets the agent's answer";
    private static final byte[] CHECKPOINT =
            "{\"kind\": \"podnuma.io/node-checkpoint\"}\n".getBytes(StandardCharsets.UTF_8);

    /** A socket case's directory: its mode, what else is in it, where it stands on a node, the mode it ends with. */
    record SocketDir(String mode, List<String> others, boolean staleSocket, String nodePath, String after) {}

    private static final Map<String, SocketDir> SOCKET_DIRS = new HashMap<>();

    @TempDir
    Path dir;

    static List<BadInput> cases() {
        return List.of(
                new BadInput(
                        "dir-state-locked",
                        KIND,
                        "a second agent on a state directory another agent holds",
                        "node-agent run with stateDir " + STATE + " while another process holds " + STATE
                                + "/agent.lock",
                        List.of("error: the agent cannot start: the state directory /var/lib/podnuma is locked by"
                                + " another node agent, pid 1234 in its PID namespace (/var/lib/podnuma/agent.lock):"
                                + " two agents on one node would pin the same containers; stop the other agent, or"
                                + " give this one a stateDir of its own"),
                        RUN_KEPT),
                new BadInput(
                        "dir-state-a-file",
                        KIND,
                        "the state directory is a file",
                        "node-agent run with stateDir " + STATE + ", a regular file",
                        List.of("error: the agent cannot start: cannot lock the state directory /var/lib/podnuma"
                                + " through /var/lib/podnuma/agent.lock: FileAlreadyExistsException: /var/lib/podnuma"
                                + " (the agent needs the directory writable, for its lock and its checkpoint)"),
                        "the file byte for byte; the agent exits 1 before it asks the API server anything or serves"),
                socket(
                        "dir-socket-open",
                        "the socket's own directory 0755, as the kubelet's DirectoryOrCreate makes it",
                        new SocketDir("rwxr-xr-x", List.of(), false, SOCKET_DIR, "rwx------"),
                        "INFO PodResources socket directory /run/podnuma/pod-resources was rwxr-xr-x, now rwx------:"
                                + " the agent's own (uid 0, nothing in it but podnuma.sock)"),
                socket(
                        "dir-socket-open-stale",
                        "the socket's own directory 0777 with a killed agent's socket in it",
                        new SocketDir("rwxrwxrwx", List.of(), true, SOCKET_DIR, "rwx------"),
                        "INFO PodResources socket directory /run/podnuma/pod-resources was rwxrwxrwx, now rwx------:"
                                + " the agent's own (uid 0, nothing in it but podnuma.sock)"),
                socket(
                        "dir-socket-shared",
                        "the socket in a directory other programs use",
                        new SocketDir("rwxr-xr-x", List.of("utmp"), false, "/run", "rwxr-xr-x"),
                        "INFO PodResources socket directory /run left rwxr-xr-x: it holds other files than"
                                + " podnuma.sock (utmp), so it is not the agent's own to change; give the socket a"
                                + " directory of its own to have it made rwx------"),
                socket(
                        "dir-socket-shared-writable",
                        "the socket in a shared directory its group may write",
                        new SocketDir("rwxrwxr-x", List.of("other.sock"), false, "/run/shared", "rwxrwxr-x"),
                        "WARN PodResources socket directory /run/shared left rwxrwxr-x: it holds other files than"
                                + " podnuma.sock (other.sock), so it is not the agent's own to change; give the socket"
                                + " a directory of its own to have it made rwx------"));
    }

    private static BadInput socket(String id, String wrong, SocketDir d, String answer) {
        SOCKET_DIRS.put(id, d);
        String kept = d.after().equals(d.mode())
                ? SERVES + "; the directory's mode and files unchanged"
                : SERVES + "; the directory " + d.after() + ", its files unchanged";
        return new BadInput(
                id,
                KIND,
                wrong,
                "the PodResources endpoint on " + d.nodePath() + "/" + SOCKET + ", the directory " + d.mode()
                        + (d.others().isEmpty() ? "" : " holding " + d.others())
                        + (d.staleSocket() ? " holding a stale " + SOCKET : ""),
                List.of(answer),
                kept);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void answeredExactlyAndKept(BadInput c) throws Exception {
        if (SOCKET_DIRS.containsKey(c.id())) {
            socketDirectory(c, SOCKET_DIRS.get(c.id()));
        } else {
            stateDirectory(c);
        }
    }

    private void stateDirectory(BadInput c) throws Exception {
        Path state = dir.resolve("state");
        Path socket = dir.resolve("sockets").resolve(SOCKET);
        Path config = writeConfig(state, socket);
        StringWriter err = new StringWriter();
        if (c.id().equals("dir-state-locked")) {
            Files.createDirectory(state);
            Path checkpoint = state.resolve(CheckpointStore.DEFAULT_FILE_NAME);
            Files.write(checkpoint, CHECKPOINT);
            try (LockHolder holder = LockHolder.start(state)) {
                int exit = run(config, err);
                c.assertAnswer(answer(err, state).stream()
                        .map(l -> l.replace("pid " + holder.pid() + " ", "pid 1234 "))
                        .toList());
                assertThat(exit).isEqualTo(1);
                assertThat(Files.readAllBytes(checkpoint)).isEqualTo(CHECKPOINT);
                assertThat(LockHolder.refusal(state))
                        .as("the first agent keeps its lock")
                        .contains("pid " + holder.pid() + " ");
                try (Stream<Path> files = Files.list(state)) {
                    assertThat(files.map(p -> p.getFileName().toString()))
                            .containsExactlyInAnyOrder("agent.lock", CheckpointStore.DEFAULT_FILE_NAME);
                }
            }
        } else {
            Files.write(state, CHECKPOINT);
            int exit = run(config, err);
            c.assertAnswer(answer(err, state));
            assertThat(exit).isEqualTo(1);
            assertThat(Files.readAllBytes(state)).isEqualTo(CHECKPOINT);
        }
        assertThat(socket).as("nothing served").doesNotExist();
    }

    /**
     * A valid file whose policy could not fit the machine: a start that got past the directories would stop with
     * that reason instead of the one asserted.
     */
    private Path writeConfig(Path state, Path socket) {
        return NodeAgentConfigYaml.write(
                SampleConfigs.unfittable(
                                "worker-1",
                                Path.of("src/test/resources/sysfs/laptop-1s-4c8t")
                                        .toAbsolutePath(),
                                state,
                                socket)
                        .build(),
                dir.resolve("agent.yaml"));
    }

    private static int run(Path config, StringWriter err) {
        return Main.execute(
                new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true),
                "run",
                "--config",
                config.toString());
    }

    private static List<String> answer(StringWriter err, Path state) {
        return err.toString()
                .lines()
                .map(l -> l.replace(state.toString(), STATE))
                .toList();
    }

    private void socketDirectory(BadInput c, SocketDir d) throws Exception {
        Path socketDir = Files.createDirectory(dir.resolve("socket-dir"));
        for (String other : d.others()) {
            Files.writeString(socketDir.resolve(other), "");
        }
        Path socket = socketDir.resolve(SOCKET);
        if (d.staleSocket()) {
            // A socket file its server never removed, as a killed agent leaves it.
            ServerSocketChannel stale = ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX);
            stale.bind(UnixDomainSocketAddress.of(socket));
            stale.close();
            assertThat(socket).exists();
        }
        Files.setPosixFilePermissions(socketDir, PosixFilePermissions.fromString(d.mode()));
        PodResourcesService service = new PodResourcesService(() -> null, DeviceSource.NONE);
        try (PodResourcesEndpoint endpoint =
                PodResourcesEndpoint.start(PodResourcesEndpoint.Settings.defaults(socket), service)) {
            SocketDirectory.Decision decision = endpoint.directory();
            c.assertAnswer(List.of(decision.level() + " "
                    + decision.note()
                            .replace(socketDir.toString(), d.nodePath())
                            .replace("uid " + uid(), "uid 0")));

            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socketDir)))
                    .isEqualTo(d.after());
            try (Stream<Path> files = Files.list(socketDir)) {
                assertThat(files.map(p -> p.getFileName().toString()).filter(n -> !n.equals(SOCKET)))
                        .containsExactlyInAnyOrderElementsOf(d.others());
            }
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)))
                    .isEqualTo("rw-------");
            ManagedChannel channel = DomainSocketChannels.open(socket);
            try {
                // Before its first sync the agent answers every call so: the call went over the socket.
                assertThatThrownBy(() -> PodResourcesListerGrpc.newBlockingStub(channel)
                                .withDeadlineAfter(10, TimeUnit.SECONDS)
                                .list(ListPodResourcesRequest.getDefaultInstance()))
                        .isInstanceOf(StatusRuntimeException.class)
                        .hasMessage("UNAVAILABLE: the podnuma node agent has not finished its first pod sync yet; retry"
                                + " shortly");
            } finally {
                channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    private static int uid() throws IOException {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    }

    @Test
    void theDocIsUpToDate() {
        assertThat(BadInputDoc.check(KIND, cases(), "node-agent", getClass().getSimpleName()))
                .isNull();
    }
}
