package io.podnuma.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

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
        Path script = findScript(Path.of("").toAbsolutePath())
                .orElseThrow(() -> new ControlPlaneUnavailableException("no e2e/controlplane/qemu/" + SCRIPT
                        + " in or above " + Path.of("").toAbsolutePath()));
        try {
            Process p = new ProcessBuilder("sh", script.toString()).start();
            // Read both pipes fully; apt-get may be chatty.
            byte[][] err = new byte[1][];
            Thread stderr = Thread.ofVirtual().start(() -> {
                try {
                    err[0] = p.getErrorStream().readAllBytes();
                } catch (IOException e) {
                    err[0] = e.toString().getBytes(StandardCharsets.UTF_8);
                }
            });
            String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(15, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException(script + " did not finish within 15 minutes");
            }
            stderr.join();
            String errText = new String(err[0], StandardCharsets.UTF_8);
            if (p.exitValue() == 3) {
                throw new ControlPlaneUnavailableException(errText.lines()
                        .filter(l -> l.contains("SKIP"))
                        .reduce((a, b) -> b)
                        .orElse(errText));
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(script + " failed with exit " + p.exitValue() + ":\n" + errText);
            }
            List<String> lines = stdout.strip().lines().toList();
            Path dir = Path.of(lines.getLast());
            return new GuestKernel(dir.resolve("vmlinuz"), dir.resolve("initramfs.cpio.gz"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + script + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + script, e);
        }
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
     * The emulator and its CPU: software emulation unless {@code -Dpodnuma.qemu.kvm=true} (a stock kernel hangs on
     * this host's paravirtual KVM), a CPU model that reports SMT siblings as Intel's do.
     */
    public static List<String> emulator() {
        return List.of(
                "qemu-system-x86_64",
                "-accel",
                // One emulation thread for all vCPUs: with a thread each, a busy host deschedules vCPUs that hold guest
                // spinlocks and the others spin (boot 22-42 s at load 3-4, no power-off within 300 s at load 16); one
                // thread took 19-22 s in the same runs.
                Boolean.getBoolean("podnuma.qemu.kvm") ? "kvm" : "tcg,thread=single",
                "-cpu",
                "max,vendor=GenuineIntel");
    }

    /** The QEMU options that boot this kernel with output on the serial console, powering off instead of a reboot. */
    public List<String> qemuArguments() {
        return List.of(
                "-kernel",
                vmlinuz.toString(),
                "-initrd",
                initramfs.toString(),
                "-append",
                "console=ttyS0 panic=-1 quiet",
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
