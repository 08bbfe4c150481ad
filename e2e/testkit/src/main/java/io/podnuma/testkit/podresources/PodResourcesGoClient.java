package io.podnuma.testkit.podresources;

import io.podnuma.controlplane.CommandResult;
import io.podnuma.controlplane.Commands;
import io.podnuma.testkit.GoModules;
import io.podnuma.testkit.Repository;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The upstream PodResources client as a consumer of the kubelet's API runs it: {@code e2e/testkit/src/main/go/podresclient}
 * uses the kubelet's own Go types and stubs ({@code k8s.io/kubelet}); built here with the machine's Go, it calls a real
 * socket and prints one {@code <key> <value>} line per answer (bodies are single-line protobuf JSON).
 */
public final class PodResourcesGoClient {

    private static final Path MODULE = Repository.resolve("e2e/testkit/src/main/go/podresclient");
    /** Where this client was told its Go before the kit had one setting for all its Go programs. */
    private static final String GO_PROPERTY = "podresclient.go";

    private final Path binary;

    private PodResourcesGoClient(Path binary) {
        this.binary = binary;
    }

    /** Why the client cannot be built here (no Go 1.26+), if it cannot. */
    public static Optional<String> whyUnavailable() {
        return GoModules.whyUnavailable("the upstream PodResources client", GO_PROPERTY);
    }

    /** Builds the client into {@code outDir} (fast once Go's build cache has it). */
    public static PodResourcesGoClient build(Path outDir) throws IOException {
        return new PodResourcesGoClient(GoModules.build(MODULE, outDir.resolve("podresclient"), GO_PROPERTY));
    }

    /**
     * {@code List}, {@code Get} of {@code namespace/pod}, {@code Get} of an absent pod and
     * {@code GetAllocatableResources}: the printed lines by key ({@code List}, {@code Get}, {@code Get-absent.code},
     * {@code Get-absent.message}, {@code GetAllocatableResources}).
     */
    public Map<String, String> query(Path socket, String namespace, String pod) {
        return keyed(call("query", socket.toString(), namespace, pod));
    }

    /** {@code calls} {@code List} calls back to back: how each ended ({@code call OK }, {@code call ResourceExhausted ...}). */
    public List<String> burst(Path socket, int calls) {
        return call("burst", socket.toString(), Integer.toString(calls)).lines().toList();
    }

    private String call(String... args) {
        List<String> command =
                Stream.concat(Stream.of(binary.toString()), Stream.of(args)).toList();
        CommandResult r = Commands.run(command, Map.of(), null, Duration.ofMinutes(2));
        if (!r.succeeded()) {
            throw new AssertionError(
                    "podresclient " + String.join(" ", args) + " exited " + r.exitCode() + ":\n" + r.output());
        }
        return r.stdout();
    }

    private static Map<String, String> keyed(String stdout) {
        Map<String, String> byKey = new LinkedHashMap<>();
        stdout.lines().forEach(l -> {
            int space = l.indexOf(' ');
            byKey.put(space < 0 ? l : l.substring(0, space), space < 0 ? "" : l.substring(space + 1));
        });
        return byKey;
    }
}
