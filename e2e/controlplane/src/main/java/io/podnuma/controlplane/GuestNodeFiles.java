package io.podnuma.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * What a {@link GuestNode}'s run directory holds before the guest boots: certificates, the kubelet's and
 * containerd's configuration, the CNI network and the guest's {@code /work/run.sh}. Written on the host; every path
 * inside is the guest's ({@code /work} is the run directory, {@link GuestNode#GUEST_BIN} the control plane's binaries).
 */
final class GuestNodeFiles {

    /** QEMU's user network: the guest's address and the host's loopback as the guest sees it. */
    static final String GUEST_ADDRESS = "10.0.2.15/24";

    static final String HOST_FROM_GUEST = "10.0.2.2";
    static final String CONTAINERD_SOCKET = "/run/containerd/containerd.sock";
    /** containerd's directory on the guest's tmpfs (overlayfs cannot stack on 9p); its root is {@code root} in it. */
    static final String CONTAINERD_DIR = "/var/lib/podnuma-containerd";
    /** NRI's default socket: where a plugin in the guest looks first. */
    static final String NRI_SOCKET = "/var/run/nri/nri.sock";

    private final LocalControlPlane plane;
    private final String nodeName;
    private final Path runDir;
    private final GuestNodeOptions options;

    private final int kubeletPort;

    GuestNodeFiles(LocalControlPlane plane, String nodeName, Path runDir, GuestNodeOptions options, int kubeletPort) {
        this.plane = plane;
        this.nodeName = nodeName;
        this.runDir = runDir;
        this.options = options;
        this.kubeletPort = kubeletPort;
    }

    void write() {
        NodeConfigs.Certificates certs = NodeConfigs.Certificates.issue(plane, runDir.resolve("pki"), nodeName);
        try {
            Files.copy(plane.caCert(), runDir.resolve("pki/ca.crt"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the CA certificate: " + e.getMessage(), e);
        }
        NodeConfigs.write(
                runDir.resolve("kubelet/kubeconfig"),
                NodeConfigs.kubeconfig(
                        "https://" + HOST_FROM_GUEST + ":"
                                + plane.server().substring(plane.server().lastIndexOf(':') + 1),
                        "",
                        "/work/pki/ca.crt",
                        guest(certs.client().cert()),
                        guest(certs.client().key())));
        NodeConfigs.write(
                runDir.resolve("kubelet/config.yaml"),
                NodeConfigs.kubeletConfiguration(
                        new NodeConfigs.KubeletPaths(
                                "/work/pki/ca.crt",
                                guest(certs.serving().cert()),
                                guest(certs.serving().key()),
                                CONTAINERD_SOCKET,
                                "/var/lib/podnuma-kubelet"),
                        "cgroupDriver: cgroupfs\n# cgroup v2: the kubelet's default failCgroupV1 (true) stays.\n"
                                // The port QEMU forwards from the host's loopback: the API server dials it (logs,
                                // exec) at the port the Node reports.
                                + "port: " + kubeletPort + "\n",
                        options.managers().kubeletLines()));
        NodeConfigs.write(
                runDir.resolve("containerd/config.toml"),
                NodeConfigs.containerdConfiguration(
                        new NodeConfigs.ContainerdPaths(
                                CONTAINERD_DIR,
                                CONTAINERD_SOCKET,
                                NRI_SOCKET,
                                GuestNode.GUEST_BIN + "/cni",
                                "/work/cni",
                                GuestNode.GUEST_BIN + "/runc"),
                        "",
                        "",
                        "        # The guest's root is the initramfs, which is not a mount: pivot_root refuses it.\n"
                                + "        NoPivotRoot = true\n"));
        // No portmap: it needs iptables, which the guest has no modules for.
        NodeConfigs.write(runDir.resolve("cni/10-podnuma.conflist"), NodeConfigs.cniConflist("/var/lib/cni/ipam", ""));
        NodeConfigs.write(runDir.resolve("run.sh"), runScript());
    }

    /** A file of the run directory as the guest names it. */
    private String guest(Path file) {
        return "/work/" + runDir.relativize(file);
    }

    /**
     * The guest's node start: network, writable tmpfs directories, the bin share, cgroup v2 controllers delegated,
     * containerd, the images, the kubelet; then the command channel until {@code /work/stop} appears.
     */
    private String runScript() {
        return """
                export PATH=%1$s:/bin:/usr/bin:/usr/sbin:/sbin
                up() { cut -d' ' -f1 /proc/uptime; }
                ip link set lo up
                ip link set eth0 up
                ip addr add %2$s dev eth0
                ip route add default via %3$s
                hostname %4$s
                mount --make-rshared / 2>/dev/null || /usr/bin/mount --make-rshared /
                mkdir -p /var/lib /run /var/log /tmp %1$s
                mount -t tmpfs -o size=75%% tmpfs /var/lib
                mount -t tmpfs tmpfs /run
                mount -t tmpfs tmpfs /var/log
                mount -t tmpfs tmpfs /tmp
                rm -rf /var/run && ln -s /run /var/run
                mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,ro,cache=loose bin %1$s
                echo "+cpuset +cpu +memory +pids +hugetlb" > /sys/fs/cgroup/cgroup.subtree_control
                echo 1 > /proc/sys/net/ipv4/ip_forward
                echo "guest: network and mounts ready at $(up) s"
                # The images, imported and unpacked on the host (ContainerdPreload): an import here would take
                # minutes under emulation.
                %8$s
                echo "guest: images in place at $(up) s"
                containerd --config=/work/containerd/config.toml > /work/containerd.log 2>&1 &
                i=0
                while [ ! -S %5$s ] && [ $i -lt 600 ]; do sleep 0.2; i=$((i + 1)); done
                echo "guest: containerd answers at $(up) s"
                kubelet --config=%7$s --kubeconfig=/work/kubelet/kubeconfig \\
                    --hostname-override=%4$s --root-dir=%6$s --v=1 > /work/kubelet.log 2>&1 &
                echo "guest: kubelet started at $(up) s"
                mkdir -p /work/cmd
                while [ ! -f /work/stop ]; do
                    for f in /work/cmd/*.sh; do
                        [ -f "$f" ] || continue
                        n=${f%%.sh}
                        mv "$f" "$n.run"
                        sh "$n.run" > "$n.out" 2>&1
                        echo $? > "$n.rc.tmp"
                        mv "$n.rc.tmp" "$n.rc"
                    done
                    sleep 0.2
                done
                echo "guest: stopping at $(up) s"
                """.formatted(
                        GuestNode.GUEST_BIN,
                        GUEST_ADDRESS,
                        HOST_FROM_GUEST,
                        nodeName,
                        CONTAINERD_SOCKET,
                        GuestNode.KUBELET_ROOT,
                        GuestNode.KUBELET_CONFIG,
                        ContainerdPreload.copyInto(CONTAINERD_DIR + "/root"));
    }
}
