package io.podnuma.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The configuration files of a real worker node, for {@link RealNode} on this host and {@link GuestNode} in a guest:
 * the same kubelet, containerd and CNI settings, with the paths and the few host-specific lines each passes in. Paths
 * are strings because a guest's are not the host's.
 */
final class NodeConfigs {

    private NodeConfigs() {}

    /** The kubelet's serving and client certificates for {@code nodeName}, issued by the plane's CA into {@code dir}. */
    record Certificates(Pki.Issued serving, Pki.Issued client) {

        static Certificates issue(LocalControlPlane plane, Path dir, String nodeName) {
            String subject = "/O=system:nodes/CN=system:node:" + nodeName;
            Pki.Issued serving = plane.issueCertificate(
                    dir,
                    "kubelet-serving",
                    subject,
                    List.of(
                            "basicConstraints = critical, CA:FALSE",
                            "keyUsage = critical, digitalSignature, keyEncipherment",
                            "extendedKeyUsage = serverAuth",
                            "subjectAltName = DNS:" + nodeName + ", DNS:localhost, IP:127.0.0.1"));
            Pki.Issued client = plane.issueCertificate(
                    dir,
                    "kubelet-client",
                    subject,
                    List.of(
                            "basicConstraints = critical, CA:FALSE",
                            "keyUsage = critical, digitalSignature, keyEncipherment",
                            "extendedKeyUsage = clientAuth"));
            return new Certificates(serving, client);
        }
    }

    /** Where a kubelet finds its files, as its own file system names them. */
    record KubeletPaths(
            String clientCa, String servingCert, String servingKey, String runtimeSocket, String stateDir) {}

    /**
     * The KubeletConfiguration: webhook authentication and authorization, the pod-level feature gates, tiny eviction
     * thresholds; {@code hostLines} (cgroup driver and version, addresses) and {@code managerLines} (CPU, memory and
     * topology managers) complete it.
     */
    static String kubeletConfiguration(KubeletPaths paths, String hostLines, String managerLines) {
        return """
                apiVersion: kubelet.config.k8s.io/v1beta1
                kind: KubeletConfiguration
                %1$sfailSwapOn: false
                readOnlyPort: 0
                authentication:
                  anonymous:
                    enabled: false
                  webhook:
                    enabled: true
                  x509:
                    clientCAFile: %2$s
                authorization:
                  mode: Webhook
                tlsCertFile: %3$s
                tlsPrivateKeyFile: %4$s
                containerRuntimeEndpoint: unix://%5$s
                makeIPTablesUtilChains: false
                volumePluginDir: %6$s/volume-plugins
                podLogsDir: %6$s/pod-logs
                imageGCHighThresholdPercent: 100
                imageGCLowThresholdPercent: 99
                evictionHard:
                  memory.available: "1Mi"
                  nodefs.available: "1%%"
                  nodefs.inodesFree: "1%%"
                  imagefs.available: "1%%"
                # A container that died is started again within 5 s however often it died (default: doubling up to
                # 5 min), so a test that kills the agent again and again waits seconds, not minutes.
                crashLoopBackOff:
                  maxContainerRestartPeriod: 5s
                featureGates:
                  PodLevelResources: true
                  PodLevelResourceManagers: true
                %7$s""".formatted(
                        hostLines,
                        paths.clientCa(),
                        paths.servingCert(),
                        paths.servingKey(),
                        paths.runtimeSocket(),
                        paths.stateDir(),
                        managerLines);
    }

    /** A kubeconfig with one client certificate; {@code clusterLines} may add e.g. a {@code tls-server-name}. */
    static String kubeconfig(String server, String clusterLines, String ca, String cert, String key) {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: podnuma
                  cluster:
                    server: %s
                %s    certificate-authority: %s
                users:
                - name: kubelet
                  user:
                    client-certificate: %s
                    client-key: %s
                contexts:
                - name: kubelet
                  context:
                    cluster: podnuma
                    user: kubelet
                current-context: kubelet
                """.formatted(server, clusterLines, ca, cert, key);
    }

    /** Where containerd keeps its state and finds its helpers, as its own file system names them. */
    record ContainerdPaths(String dir, String socket, String nriSocket, String cniBin, String cniConf, String runc) {}

    /**
     * containerd v2.4's configuration ({@code version = 4}): sockets, NRI on, the pinned pause image, CNI and runc;
     * {@code nriLines} go in the NRI section, {@code runtimeLines} in the CRI runtime section, {@code runcLines} in
     * runc's options.
     */
    static String containerdConfiguration(
            ContainerdPaths paths, String nriLines, String runtimeLines, String runcLines) {
        return """
                version = 4
                root = "%1$s/root"
                state = "%1$s/state"

                [plugins.'io.containerd.server.v1.grpc']
                  address = "%2$s"

                [plugins.'io.containerd.server.v1.ttrpc']
                  address = "%2$s.ttrpc"

                [plugins.'io.containerd.server.v1.debug']
                  address = "%1$s/debug.sock"

                [plugins.'io.containerd.internal.v1.opt']
                  path = "%1$s/opt"

                [plugins.'io.containerd.nri.v1.nri']
                  disable = false
                  socket_path = "%3$s"
                %4$s

                [plugins.'io.containerd.cri.v1.images']
                  [plugins.'io.containerd.cri.v1.images'.pinned_images]
                    sandbox = '%5$s'

                [plugins.'io.containerd.cri.v1.runtime']
                %6$s  netns_mounts_under_state_dir = true
                  [plugins.'io.containerd.cri.v1.runtime'.cni]
                    bin_dirs = ["%7$s"]
                    conf_dir = "%8$s"
                  [plugins.'io.containerd.cri.v1.runtime'.containerd]
                    default_runtime_name = "runc"
                    [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc]
                      runtime_type = "io.containerd.runc.v2"
                      [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc.options]
                        BinaryName = "%9$s"
                        SystemdCgroup = false
                %10$s""".formatted(
                        paths.dir(),
                        paths.socket(),
                        paths.nriSocket(),
                        nriLines,
                        RealNode.PAUSE_IMAGE,
                        runtimeLines,
                        paths.cniBin(),
                        paths.cniConf(),
                        paths.runc(),
                        runcLines);
    }

    /** The CNI network: a bridge with host-local addresses on {@link RealNode#POD_SUBNET}, then {@code morePlugins}. */
    static String cniConflist(String ipamDir, String morePlugins) {
        return """
                {
                  "cniVersion": "1.0.0",
                  "name": "podnuma",
                  "plugins": [
                    {
                      "type": "bridge",
                      "bridge": "%s",
                      "isGateway": true,
                      "ipMasq": false,
                      "hairpinMode": true,
                      "ipam": {
                        "type": "host-local",
                        "ranges": [[{"subnet": "%s", "gateway": "%s"}]],
                        "routes": [{"dst": "0.0.0.0/0"}],
                        "dataDir": "%s"
                      }
                    }%s
                  ]
                }
                """.formatted(RealNode.BRIDGE, RealNode.POD_SUBNET, RealNode.POD_GATEWAY, ipamDir, morePlugins);
    }

    static Path write(Path file, String content) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
