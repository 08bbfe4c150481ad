package io.podnuma.agent.qemu;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.controlplane.ControlPlaneUnavailableException;
import io.podnuma.controlplane.GuestKernel;
import io.podnuma.controlplane.GuestTopology;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Boots one Linux guest under QEMU (software emulation) with 2 sockets × 2 NUMA nodes per socket ×
 * 2 cores per node × 2 threads per core, runs {@link GuestCheck} inside it on the real {@code /sys}
 * and cgroup2 mount, and asserts what the guest kernel reported. One boot for all tests of the class.
 *
 * <p>{@link GuestKernel} ({@code e2e/controlplane/qemu/prepare-guest.sh}) provides the kernel and initramfs (cached under
 * {@code ~/.cache/podnuma/qemu/}); when it cannot (no qemu and no way to install it, no Debian kernel
 * package) the tests skip with its reason. {@code -Dpodnuma.qemu.kvm=true} uses KVM instead of TCG
 * (off by default: a stock kernel hangs on this host's paravirtual KVM);
 * {@code -Dpodnuma.qemu.timeoutSeconds} changes the outer timeout (default 300).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RealNumaGuestIT {

    private static final GuestLayout LAYOUT = new GuestLayout(new GuestTopology(2, 2, 2, 2, 256, 12, 21));
    private static final String DONE_MARKER = GuestKernel.DONE_MARKER;
    private static final String POD = "kubepods/burstable/pod0b5c7a44-3f1e-4c55-9d0a-2d6f8e1a7b31";

    private Map<String, String> guest;

    /** {@code work} is the guest's /work (classpath, script, console, result), removed with the class. */
    @BeforeAll
    void bootGuest(@TempDir Path work) throws Exception {
        GuestKernel kernel = prepare();
        Path javaHome = Path.of(System.getProperty("java.home")).toRealPath();
        Assumptions.assumeTrue(
                javaHome.startsWith("/usr"), "the guest sees the host's /usr only; this JDK lives at " + javaHome);
        String guestClasspath = copyClasspath(work.resolve("cp"));
        Files.writeString(
                work.resolve("run.sh"),
                javaHome.resolve("bin/java") + " -XX:+UseSerialGC -XX:-UsePerfData -XX:TieredStopAtLevel=1 -Xmx128m"
                        + " -cp " + guestClasspath + " " + GuestCheck.class.getName() + " /work/result.txt\n");

        // The node agent's tests are on the build's critical path.
        List<String> cmd = new ArrayList<>(GuestKernel.emulator(GuestKernel.Priority.RAISED));
        cmd.addAll(LAYOUT.qemuArguments());
        cmd.addAll(kernel.qemuArguments());
        cmd.addAll(GuestKernel.share(Path.of("/usr"), "usr", true));
        cmd.addAll(GuestKernel.share(Path.of("/etc"), "etc", true));
        cmd.addAll(GuestKernel.share(work, "work", false));

        Path console = work.resolve("console.log");
        long timeout = Long.getLong("podnuma.qemu.timeoutSeconds", 300);
        long started = System.nanoTime();
        Process qemu = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(console.toFile())
                .start();
        if (!qemu.waitFor(timeout, TimeUnit.SECONDS)) {
            qemu.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("guest did not power off within " + timeout + " s; console tail:\n" + tail(console)
                    + guestLog(work));
        }
        System.out.printf(
                "RealNumaGuestIT: guest booted, checked and powered off in %.1f s (qemu exit %d), work dir %s%n",
                (System.nanoTime() - started) / 1e9, qemu.exitValue(), work);
        String consoleText = Files.readString(console, StandardCharsets.ISO_8859_1);
        if (!consoleText.contains(DONE_MARKER + "0")) {
            throw new AssertionError("guest check did not finish (no \"" + DONE_MARKER + "0\" on the console);"
                    + " console tail:\n" + tail(console) + guestLog(work));
        }
        guest = parse(work.resolve("result.txt"));
        assertThat(guest.get("failure")).as("exception inside the guest").isNull();
        assertThat(guest).containsEntry("completed", "true");
    }

    private static GuestKernel prepare() {
        try {
            return GuestKernel.prepare();
        } catch (ControlPlaneUnavailableException e) {
            System.out.println("RealNumaGuestIT skipped: " + e.getMessage());
            Assumptions.abort(e.getMessage());
            throw e;
        }
    }

    /**
     * Copies the main classes (failsafe gives a jar, an IDE a directory) and the guest-side classes into
     * the work dir, so the guest reads a snapshot even while another build rewrites {@code target}.
     *
     * @return the classpath as the guest sees it under {@code /work}
     */
    private static String copyClasspath(Path cp) throws Exception {
        Path main = locationOf(CpuSet.class);
        Path mainCopy = cp.resolve(Files.isDirectory(main) ? "main" : "main.jar");
        copyTree(main, mainCopy);
        String pkg = GuestCheck.class.getPackageName().replace('.', '/');
        Path from = locationOf(GuestCheck.class).resolve(pkg);
        Path to = Files.createDirectories(cp.resolve("test").resolve(pkg));
        try (var classes = Files.newDirectoryStream(from, GuestCheck.class.getSimpleName() + "*.class")) {
            for (Path c : classes) {
                Files.copy(c, to.resolve(c.getFileName()));
            }
        }
        return "/work/cp/" + mainCopy.getFileName() + ":/work/cp/test";
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (var paths = Files.walk(from)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(p, target);
                }
            }
        }
    }

    private static Path locationOf(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static String tail(Path file) throws IOException {
        if (!Files.exists(file)) {
            return "(no " + file + ")\n";
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.ISO_8859_1);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())) + "\n";
    }

    private static String guestLog(Path work) throws IOException {
        return "guest run.log:\n" + tail(work.resolve("run.log"));
    }

    private static Map<String, String> parse(Path file) throws IOException {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            int eq = line.indexOf('=');
            m.put(
                    line.substring(0, eq),
                    line.substring(eq + 1).replace("\\n", "\n").replace("\\\\", "\\"));
        }
        return m;
    }

    private String value(String key) {
        assertThat(guest).as("guest result keys").containsKey(key);
        return guest.get(key);
    }

    private void assertAllowed(String step, String process, CpuSet cpus, CpuSet mems) {
        assertThat(value(step + "." + process + ".cpus"))
                .as("Cpus_allowed_list of %s after %s", process, step)
                .isEqualTo(cpus.toString());
        assertThat(value(step + "." + process + ".mems"))
                .as("Mems_allowed_list of %s after %s", process, step)
                .isEqualTo(mems.toString());
    }

    private List<String> writes(String step) {
        String w = value(step + ".writes");
        return w.isEmpty() ? List.of() : Arrays.asList(w.split(";"));
    }

    @Test
    void discoversSocketsNodesCoresAndSiblings() {
        assertThat(value("topology.onlineCpus"))
                .isEqualTo(CpuSet.range(0, LAYOUT.cpus() - 1).toString());
        assertThat(value("topology.sockets")).isEqualTo(String.valueOf(LAYOUT.sockets()));
        assertThat(value("topology.numaNodes"))
                .isEqualTo(CpuSet.range(0, LAYOUT.nodes() - 1).toString());
        assertThat(value("topology.cores")).isEqualTo(String.valueOf(LAYOUT.cpus() / LAYOUT.threadsPerCore()));
        assertThat(value("topology.cpusPerCore")).isEqualTo(String.valueOf(LAYOUT.threadsPerCore()));
        for (int cpu = 0; cpu < LAYOUT.cpus(); cpu++) {
            CpuSet siblings = LAYOUT.siblingsOf(cpu);
            assertThat(value("cpu." + cpu))
                    .as("CPU %d", cpu)
                    .isEqualTo("socket=" + LAYOUT.socketOf(cpu) + " node=" + LAYOUT.nodeOf(cpu) + " core="
                            + siblings.first() + " siblings=" + siblings);
        }
    }

    @Test
    void discoversNodeCpusDistancesSocketsAndMemory() {
        long configured = LAYOUT.memoryMiBPerNode() * 1024L * 1024L;
        for (int n = 0; n < LAYOUT.nodes(); n++) {
            assertThat(value("node." + n + ".cpus"))
                    .as("node %d CPUs", n)
                    .isEqualTo(LAYOUT.cpusOfNode(n).toString());
            assertThat(value("node." + n + ".distances"))
                    .as("node %d distances", n)
                    .isEqualTo(String.join(
                            ",",
                            LAYOUT.distancesFrom(n).stream()
                                    .map(String::valueOf)
                                    .toList()));
            assertThat(value("node." + n + ".sockets"))
                    .as("node %d socket", n)
                    .isEqualTo(String.valueOf(n / LAYOUT.nodesPerSocket()));
            // MemTotal is what the kernel has left after its own reservations on the node.
            assertThat(Long.parseLong(value("node." + n + ".memoryBytes")))
                    .as("node %d MemTotal", n)
                    .isLessThanOrEqualTo(configured)
                    .isGreaterThan(configured / 2);
        }
    }

    @Test
    void detectsTheCgroupV2MountWithCpusetAndBothDrivers() {
        assertThat(value("cgroup.controllers").split(" ")).contains("cpuset");
        assertThat(value("layout.version")).isEqualTo("V2");
        assertThat(value("layout.driver")).isEqualTo("CGROUPFS");
        assertThat(value("layout.cpusetRoot")).isEqualTo("/sys/fs/cgroup");
        assertThat(value("systemd.layout.driver")).isEqualTo("SYSTEMD");
    }

    @Test
    void pinsRealProcessesAcrossNodesAndSocketsWhileTheSiblingKeepsItsCpus() {
        CpuSet all = CpuSet.range(0, LAYOUT.cpus() - 1);
        CpuSet allNodes = CpuSet.range(0, LAYOUT.nodes() - 1);
        CpuSet node0 = LAYOUT.cpusOfNode(0);
        assertAllowed("start", "a", all, allNodes);
        assertAllowed("start", "b", all, allNodes);

        // The first apply turns on cpuset from the root down to the pod, then writes the container.
        String b = POD + "/crio-" + "b".repeat(64);
        assertThat(writes("sibling-node0"))
                .containsExactly(
                        "cgroup.subtree_control:+cpuset",
                        "kubepods/cgroup.subtree_control:+cpuset",
                        "kubepods/burstable/cgroup.subtree_control:+cpuset",
                        POD + "/cgroup.subtree_control:+cpuset",
                        b + "/cpuset.cpus:" + node0,
                        b + "/cpuset.mems:0");
        assertAllowed("sibling-node0", "b", node0, CpuSet.of(0));
        assertAllowed("sibling-node0", "a", all, allNodes);

        assertAllowed("a-node1", "a", LAYOUT.cpusOfNode(1), CpuSet.of(1));
        // A move passes through old ∪ new on the container itself, CPUs first, then memory nodes.
        String a = POD + "/" + "a".repeat(64);
        CpuSet socket1 = LAYOUT.cpusOfNode(2).union(LAYOUT.cpusOfNode(3));
        assertThat(writes("a-socket1"))
                .containsExactly(
                        a + "/cpuset.cpus:" + LAYOUT.cpusOfNode(1).union(socket1),
                        a + "/cpuset.cpus:" + socket1,
                        a + "/cpuset.mems:" + CpuSet.of(1, 2, 3),
                        a + "/cpuset.mems:" + CpuSet.of(2, 3));
        assertAllowed("a-socket1", "a", LAYOUT.cpusOfNode(2).union(LAYOUT.cpusOfNode(3)), CpuSet.of(2, 3));
        CpuSet oneCore = LAYOUT.siblingsOf(LAYOUT.cpusOfNode(3).first());
        assertAllowed("a-node3-one-core", "a", oneCore, CpuSet.of(3));
        for (String step : List.of("a-node1", "a-socket1", "a-node3-one-core")) {
            assertAllowed(step, "b", node0, CpuSet.of(0));
        }
        assertThat(writes("a-node3-one-core-again"))
                .as("an apply that changes nothing")
                .isEmpty();
    }

    @Test
    void growsAPodBubbleThatHidesTheContainersNode() {
        CpuSet socket0 = LAYOUT.cpusOfNode(0).union(LAYOUT.cpusOfNode(1));
        CpuSet oneCore = LAYOUT.siblingsOf(LAYOUT.cpusOfNode(3).first());
        // v2 does not refuse a parent that drops a child's CPUs: the child falls back to the parent's.
        assertAllowed("pod-bubble-socket0", "a", socket0, CpuSet.of(0, 1));
        assertThat(writes("a-node3-through-bubble"))
                .containsExactly(
                        POD + "/cpuset.cpus:" + socket0.union(oneCore), POD + "/cpuset.mems:" + CpuSet.of(0, 1, 3));
        assertAllowed("a-node3-through-bubble", "a", oneCore, CpuSet.of(3));
    }

    @Test
    void refusesAnEmptyMemorySetAndACpuTheMachineLacksWithoutChangingAnything() {
        CpuSet oneCore = LAYOUT.siblingsOf(LAYOUT.cpusOfNode(3).first());
        assertThat(value("a-empty-mems-refused.error")).contains("cpuset.mems");
        assertAllowed("a-empty-mems-refused", "a", oneCore, CpuSet.of(3));
        assertThat(value("a-missing-cpu-refused.error"))
                .contains("cpuset.cpus")
                .contains(String.valueOf(LAYOUT.cpus()))
                .contains("Numerical result out of range") // the kernel's ERANGE for a CPU beyond nr_cpu_ids
                .contains("the 0 before it were made");
        assertAllowed("a-missing-cpu-refused", "a", oneCore, CpuSet.of(3));
    }

    @Test
    void sharesANodeWithTheSiblingAfterItShrinks() {
        CpuSet node0 = LAYOUT.cpusOfNode(0);
        assertAllowed("sibling-shrink", "b", node0.lowest(2), CpuSet.of(0));
        assertAllowed("a-node0-beside-sibling", "a", node0.difference(node0.lowest(2)), CpuSet.of(0));
        assertAllowed("a-node0-beside-sibling", "b", node0.lowest(2), CpuSet.of(0));
    }

    @Test
    void pinsAProcessInTheSystemdLayout() {
        assertAllowed("d-node2", "d", LAYOUT.cpusOfNode(2), CpuSet.of(2));
        assertAllowed("d-node1-and-node2", "d", LAYOUT.cpusOfNode(1).union(LAYOUT.cpusOfNode(2)), CpuSet.of(1, 2));
        assertThat(writes("d-node2")).anyMatch(w -> w.startsWith("kubepods.slice/cgroup.subtree_control:+cpuset"));
        assertAllowed(
                "d-node1-and-node2",
                "a",
                LAYOUT.cpusOfNode(0).difference(LAYOUT.cpusOfNode(0).lowest(2)),
                CpuSet.of(0));
    }
}
