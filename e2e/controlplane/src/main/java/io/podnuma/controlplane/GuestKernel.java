package io.podnuma.controlplane;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a QEMU test guest boots, from {@code e2e/controlplane/qemu/prepare-guest.sh}: Debian's standard kernel and a
 * busybox initramfs whose {@code /init} mounts the 9p shares ({@code usr}, {@code etc}, {@code work}), runs
 * {@code /work/run.sh}, prints {@link #DONE_MARKER} with its exit code and powers off. Cached under
 * {@code ~/.cache/podnuma/qemu}.
 */
public record GuestKernel(Path vmlinuz, Path initramfs) {

    public static final String SCRIPT = "prepare-guest.sh";
    public static final String DONE_MARKER = "PODNUMA-GUEST-DONE rc=";

    /**
     * Prepares (or finds cached) the kernel and initramfs.
     *
     * @throws ControlPlaneUnavailableException when this machine cannot (no qemu and no apt-get to install it, no
     *     Debian kernel package): the reason the script gave
     */
    public static GuestKernel prepare() {
        return prepare(Line.DEBIAN_DEFAULT);
    }

    /** Which of Debian's kernels a guest boots. */
    public enum Line {
        /** The release's default kernel ({@code linux-image-amd64}: 6.1 on bookworm). */
        DEBIAN_DEFAULT("linux-image-amd64"),
        /**
         * Bookworm's newer LTS kernel ({@code linux-image-6.12-amd64}): cgroup v2 cpuset partitions below the root
         * ({@code cpuset.cpus.exclusive}, remote partitions; Linux 6.7+).
         */
        LTS_6_12("linux-image-6.12-amd64");

        private final String metaPackage;

        Line(String metaPackage) {
            this.metaPackage = metaPackage;
        }

        public String metaPackage() {
            return metaPackage;
        }
    }

    /** {@link #prepare()} for the kernel {@code line}. */
    public static GuestKernel prepare(Line line) {
        Path script = findScript(Path.of("").toAbsolutePath())
                .orElseThrow(() -> new ControlPlaneUnavailableException("no e2e/controlplane/qemu/" + SCRIPT
                        + " in or above " + Path.of("").toAbsolutePath()));
        CommandResult r = Commands.run(
                List.of("sh", script.toString()),
                Map.of("PODNUMA_GUEST_KERNEL", line.metaPackage()),
                null,
                Duration.ofMinutes(15));
        if (r.exitCode() == 3) {
            throw new ControlPlaneUnavailableException(r.stderr()
                    .lines()
                    .filter(l -> l.contains("SKIP"))
                    .reduce((a, b) -> b)
                    .orElse(r.stderr()));
        }
        if (r.exitCode() != 0) {
            throw new IllegalStateException(script + " failed with exit " + r.exitCode() + ":\n" + r.stderr());
        }
        Path dir = Path.of(r.stdout().strip().lines().toList().getLast());
        return new GuestKernel(dir.resolve("vmlinuz"), dir.resolve("initramfs.cpio.gz"));
    }

    /** Tests run from their module's directory: this module, or another one below the repository root. */
    static Optional<Path> findScript(Path from) {
        for (Path dir = from; dir != null; dir = dir.getParent()) {
            for (Path candidate : List.of(
                    dir.resolve("qemu").resolve(SCRIPT),
                    dir.resolve("e2e").resolve("controlplane").resolve("qemu").resolve(SCRIPT))) {
                if (Files.isRegularFile(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * How much of this machine's CPU an emulator may take: the guest's one emulation thread runs at the priority its
     * place in the build asks for.
     */
    public enum Priority {
        /**
         * {@code nice -n -10} (as root; elsewhere {@code nice} says it cannot and runs it as is): for a guest on the
         * build's critical path. At equal priority the test JVMs beside it took much of its CPU (in a CI run the guest
         * journey's node was Ready 109 s after the guest started; 45 s at this priority). It keeps one host CPU, the
         * others keep the rest.
         */
        RAISED("-10"),
        /** The host's default: a guest that does not hold up the build's critical path. */
        NORMAL("0");

        private final String niceness;

        Priority(String niceness) {
            this.niceness = niceness;
        }
    }

    /**
     * The emulator and its CPU at {@code priority}: software emulation unless {@code -Dpodnuma.qemu.kvm=true} (a
     * stock kernel hangs on this host's paravirtual KVM), a CPU model that reports SMT siblings as Intel's do.
     */
    public static List<String> emulator(Priority priority) {
        return List.of(
                "nice",
                "-n",
                priority.niceness,
                "qemu-system-x86_64",
                "-accel",
                // One emulation thread for all vCPUs: with a thread each, a busy host deschedules vCPUs that hold guest
                // spinlocks and the others spin (boot 22-42 s at load 3-4, no power-off within 300 s at load 16); one
                // thread took 19-22 s in the same runs.
                Boolean.getBoolean("podnuma.qemu.kvm") ? "kvm" : "tcg,thread=single",
                "-cpu",
                "max,vendor=GenuineIntel");
    }

    /**
     * The QEMU options that boot this kernel with output on the serial console, powering off instead of a reboot.
     * Without the CPU vulnerability mitigations: the emulated Intel CPU claims none of the "not affected" bits, so the
     * kernel would isolate its page tables and flush on every system call, which emulation pays for many times over; the
     * guest runs only the tests' own processes.
     */
    public List<String> qemuArguments() {
        return List.of(
                "-kernel",
                vmlinuz.toString(),
                "-initrd",
                initramfs.toString(),
                "-append",
                "console=ttyS0 panic=-1 quiet mitigations=off",
                "-no-reboot",
                "-display",
                "none",
                "-monitor",
                "none",
                "-serial",
                "stdio");
    }

    /** A 9p share as the initramfs mounts it ({@code tag} is the mount tag). */
    public static List<String> share(Path path, String tag, boolean readOnly) {
        return List.of(
                "-virtfs",
                "local,path=" + path + ",mount_tag=" + tag + ",security_model=none" + (readOnly ? ",readonly=on" : ""));
    }
}
