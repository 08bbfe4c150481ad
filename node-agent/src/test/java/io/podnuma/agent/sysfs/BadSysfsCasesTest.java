package io.podnuma.agent.sysfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.testkit.badinput.BadInput;
import io.podnuma.testkit.badinput.BadInputDoc;
import io.podnuma.testkit.badinput.InputKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue's sysfs trees: a captured machine with one file changed or taken away, read as the agent reads the
 * host's at start. Each is refused naming the file, its content and what is expected (the agent does not start on a
 * machine it cannot describe), and the reader changes nothing. Messages name the tree as {@code /sys}.
 */
class BadSysfsCasesTest {

    private static final InputKind KIND = InputKind.SYSFS;
    private static final String KEPT = "the tree is unchanged (the reader only reads); the agent does not start";
    private static final String DELETE = "<deleted>";

    @TempDir
    Path root;

    /** A case's input: the machine and {@code path -> new content} (or {@value #DELETE}). */
    record Edit(FakeMachine machine, String path, String content) {}

    private static final Map<String, Edit> EDITS = new java.util.HashMap<>();

    /**
     * Two sockets of two cores with two threads, one NUMA node each: the smallest tree with two nodes (CPUs 0-1,4-5
     * on node0, 2-3,6-7 on node1), so each case writes some 60 files rather than a server's 1,800.
     */
    private static final FakeMachine TWO_NODES = new FakeMachine(
            "small-2s-ht", 2, 2, 2, 1, 1, 4 * FakeMachine.GIB_IN_KIB, 0, 0, 10, 21, CpuSet.empty(), 0, 0, 0);

    static List<BadInput> cases() {
        return List.of(
                laptop(
                        "sys-online-garbage",
                        "a token in the online list that is no CPU id",
                        "devices/system/cpu/online",
                        "0-3,x\n",
                        "/sys/devices/system/cpu/online: invalid CPU list \"0-3,x\": element 2 \"x\" is not an id or range of ids; expected comma-separated ids and ranges such as \"0-3,8,10-11\""),
                laptop(
                        "sys-online-empty",
                        "an empty online list",
                        "devices/system/cpu/online",
                        "",
                        "/sys/devices/system/cpu/online: unexpected content \"\"; expected at least one online CPU"),
                laptop(
                        "sys-online-missing",
                        "no online list",
                        "devices/system/cpu/online",
                        DELETE,
                        "/sys/devices/system/cpu/online: missing; expected a CPU list such as 0-3,8 here (is the host's /sys mounted whole?)"),
                laptop(
                        "sys-online-beyond",
                        "an online CPU without a topology directory",
                        "devices/system/cpu/online",
                        "0-8\n",
                        "/sys/devices/system/cpu/cpu8/topology: missing, but CPU 8 is listed in /sys/devices/system/cpu/online"),
                laptop(
                        "sys-core-id-text",
                        "a core id that is no integer",
                        "devices/system/cpu/cpu2/topology/core_id",
                        "two\n",
                        "/sys/devices/system/cpu/cpu2/topology/core_id: unexpected content \"two\"; expected an integer in 0..65535"),
                laptop(
                        "sys-core-id-negative",
                        "a negative core id",
                        "devices/system/cpu/cpu2/topology/core_id",
                        "-1\n",
                        "/sys/devices/system/cpu/cpu2/topology/core_id: unexpected content \"-1\"; expected an integer in 0..65535"),
                laptop(
                        "sys-package-missing",
                        "no physical package id",
                        "devices/system/cpu/cpu3/topology/physical_package_id",
                        DELETE,
                        "/sys/devices/system/cpu/cpu3/topology/physical_package_id: missing; expected an integer here (is the host's /sys mounted whole?)"),
                laptop(
                        "sys-siblings-disagree",
                        "SMT siblings that disagree",
                        "devices/system/cpu/cpu1/topology/core_cpus_list",
                        "1,6\n",
                        "/sys/devices/system/cpu/cpu6/topology: SMT siblings disagree: cpu1 lists 1,6 but cpu6 lists 2,6; siblings must list the same CPUs"),
                laptop(
                        "sys-meminfo-no-total",
                        "a node's meminfo without MemTotal",
                        "devices/system/node/node0/meminfo",
                        "Node 0 MemFree: 1 kB\n",
                        "/sys/devices/system/node/node0/meminfo: unexpected content \"Node 0 MemFree: 1 kB\"; expected a line \"Node <n> MemTotal: <kB> kB\""),
                laptop(
                        "sys-meminfo-garbage",
                        "a MemTotal that is no number",
                        "devices/system/node/node0/meminfo",
                        "Node 0 MemTotal: lots kB\n",
                        "/sys/devices/system/node/node0/meminfo: unexpected content \"Node 0 MemTotal: lots kB\"; expected a line \"Node <n> MemTotal: <kB> kB\""),
                laptop(
                        "sys-node-cpulist-garbage",
                        "a node cpulist that is no CPU list",
                        "devices/system/node/node0/cpulist",
                        "0-\n",
                        "/sys/devices/system/node/node0/cpulist: invalid CPU list \"0-\": element 1 \"0-\" is not an id or range of ids; expected comma-separated ids and ranges such as \"0-3,8,10-11\""),
                twoSockets(
                        "sys-cpu-in-two-nodes",
                        "a CPU listed by two nodes",
                        "devices/system/node/node1/cpulist",
                        "0,2-3,6-7\n",
                        "/sys/devices/system/node/node1/cpulist: CPU 0 is also listed by node0; a CPU belongs to one node"),
                twoSockets(
                        "sys-cpu-in-no-node",
                        "an online CPU in no node",
                        "devices/system/node/node1/cpulist",
                        "2-3,6\n",
                        "/sys/devices/system/node: online CPU 7 is in no node's cpulist"),
                twoSockets(
                        "sys-distance-short",
                        "a distance row too short",
                        "devices/system/node/node0/distance",
                        "10\n",
                        "/sys/devices/system/node/node0/distance: unexpected content \"10\"; expected 2 distances (one per node directory), found 1"),
                twoSockets(
                        "sys-distance-text",
                        "a distance that is no number",
                        "devices/system/node/node0/distance",
                        "10 far\n",
                        "/sys/devices/system/node/node0/distance: unexpected content \"10 far\"; expected 2 positive integers separated by spaces, one per node"),
                new BadInput(
                        "sys-not-sysfs",
                        KIND,
                        "a directory that is no sysfs",
                        "an empty directory",
                        List.of("/sys/devices/system/cpu: not a directory; is /sys a sysfs root (such as /sys)?"),
                        KEPT));
    }

    private static BadInput laptop(String id, String wrong, String path, String content, String... answer) {
        return edit(id, wrong, new Edit(FakeMachine.LAPTOP, path, content), answer);
    }

    private static BadInput twoSockets(String id, String wrong, String path, String content, String... answer) {
        return edit(id, wrong, new Edit(TWO_NODES, path, content), answer);
    }

    private static BadInput edit(String id, String wrong, Edit e, String... answer) {
        EDITS.put(id, e);
        String input = e.machine().name() + " with " + e.path()
                + (e.content().equals(DELETE) ? " deleted" : " = " + e.content().strip());
        return new BadInput(id, KIND, wrong, input, List.of(answer), KEPT);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void theReaderAnswersExactlyAndChangesNothing(BadInput c) throws IOException {
        Edit e = EDITS.get(c.id());
        if (e != null) {
            FakeSysfsWriter.write(e.machine(), root);
            Path file = root.resolve(e.path());
            if (e.content().equals(DELETE)) {
                Files.delete(file);
            } else {
                Files.writeString(file, e.content());
            }
        }
        Map<String, String> before = snapshot();

        String answer;
        try {
            new SysfsTopologyReader(root).read();
            throw new AssertionError("the reader accepted the tree");
        } catch (SysfsException ex) {
            answer = ex.getMessage().replace(root.toString(), "/sys");
        }

        c.assertAnswer(List.of(answer));
        assertThat(snapshot()).isEqualTo(before);
    }

    private Map<String, String> snapshot() {
        try (Stream<Path> s = Files.walk(root)) {
            Map<String, String> files = new TreeMap<>();
            for (Path p : s.sorted(Comparator.naturalOrder()).toList()) {
                files.put(root.relativize(p).toString(), Files.isRegularFile(p) ? Files.readString(p) : "/");
            }
            return files;
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    @Test
    void theDocIsUpToDate() {
        assertThat(BadInputDoc.check(KIND, cases(), "node-agent", getClass().getSimpleName()))
                .isNull();
    }
}
