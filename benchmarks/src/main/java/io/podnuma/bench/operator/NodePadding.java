package io.podnuma.bench.operator;

import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A Node object the size of a real one: what a kubelet of a busy cloud worker reports (about 50 cached images with
 * their digests and sizes, some 15 labels, the five conditions, capacity and allocatable with huge pages, addresses,
 * node info). A real Node is 10-15 KB of JSON; a bare one 1 KB, which would make the operator's node cache look far
 * cheaper than it is. Deterministic: the same index and time give the same object.
 */
public final class NodePadding {

    /** Images each node reports. */
    public static final int IMAGES = 50;

    private static final String[] TEAMS = {"payments", "search", "ingest", "platform", "ml", "web", "batch", "auth"};
    private static final String[] ZONES = {"a", "b", "c"};

    private NodePadding() {}

    /**
     * @param index the node's number (seeds the digests, sizes and IDs)
     * @param labels the bench's own labels (its pool), added to the usual ones
     * @param now the time written into the conditions
     */
    public static Node node(String name, int index, Map<String, String> labels, Instant now) {
        SplittableRandom random = new SplittableRandom(index * 0x9E3779B97F4A7C15L + 17);
        String zone = "eu-west-1" + ZONES[index % ZONES.length];
        Map<String, String> all = new LinkedHashMap<>();
        all.put("beta.kubernetes.io/arch", "amd64");
        all.put("beta.kubernetes.io/instance-type", "m6i.8xlarge");
        all.put("beta.kubernetes.io/os", "linux");
        all.put("failure-domain.beta.kubernetes.io/region", "eu-west-1");
        all.put("failure-domain.beta.kubernetes.io/zone", zone);
        all.put("kubernetes.io/arch", "amd64");
        all.put("kubernetes.io/hostname", name);
        all.put("kubernetes.io/os", "linux");
        all.put("node.kubernetes.io/instance-type", "m6i.8xlarge");
        all.put("topology.kubernetes.io/region", "eu-west-1");
        all.put("topology.kubernetes.io/zone", zone);
        all.put("node-role.kubernetes.io/worker", "");
        all.put("eks.amazonaws.com/nodegroup", "workers-" + (index % 7));
        all.put("eks.amazonaws.com/capacityType", index % 4 == 0 ? "SPOT" : "ON_DEMAND");
        all.putAll(labels);
        Map<String, Quantity> capacity = new LinkedHashMap<>();
        capacity.put("cpu", new Quantity("32"));
        capacity.put("ephemeral-storage", new Quantity("209702892Ki"));
        capacity.put("hugepages-1Gi", new Quantity("0"));
        capacity.put("hugepages-2Mi", new Quantity("0"));
        capacity.put("memory", new Quantity("129497112Ki"));
        capacity.put("pods", new Quantity("110"));
        Map<String, Quantity> allocatable = new LinkedHashMap<>(capacity);
        allocatable.put("cpu", new Quantity("31850m"));
        allocatable.put("ephemeral-storage", new Quantity("192188443124"));
        allocatable.put("memory", new Quantity("124060696Ki"));
        String time = DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
        String ip = "10.%d.%d.%d".formatted(index >> 16 & 255, index >> 8 & 255, index & 255);
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(all)
                .addToAnnotations("alpha.kubernetes.io/provided-node-ip", ip)
                .addToAnnotations("node.alpha.kubernetes.io/ttl", "0")
                .addToAnnotations("volumes.kubernetes.io/controller-managed-attach-detach", "true")
                .addToAnnotations(
                        "csi.volume.kubernetes.io/nodeid",
                        "{\"ebs.csi.aws.com\":\"i-0" + hex(random, 16) + "\",\"efs.csi.aws.com\":\"i-0"
                                + hex(random, 16) + "\"}")
                .endMetadata()
                .withNewSpec()
                .withPodCIDR("10.244.%d.0/24".formatted(index % 256))
                .withPodCIDRs("10.244.%d.0/24".formatted(index % 256))
                .withProviderID("aws:///" + zone + "/i-0" + hex(random, 16))
                .endSpec()
                .withNewStatus()
                .withCapacity(capacity)
                .withAllocatable(allocatable)
                .withConditions(conditions(time))
                .withAddresses(
                        new NodeAddress(ip, "InternalIP"),
                        new NodeAddress(name, "Hostname"),
                        new NodeAddress("ip-" + ip.replace('.', '-') + ".eu-west-1.compute.internal", "InternalDNS"))
                .withNewDaemonEndpoints()
                .withNewKubeletEndpoint(10250)
                .endDaemonEndpoints()
                .withNewNodeInfo()
                .withArchitecture("amd64")
                .withBootID(uuid(random))
                .withContainerRuntimeVersion("containerd://1.7.27")
                .withKernelVersion("6.1.134-152.225.amzn2023.x86_64")
                .withKubeProxyVersion("v1.37.2")
                .withKubeletVersion("v1.37.2")
                .withMachineID(hex(random, 32))
                .withOperatingSystem("linux")
                .withOsImage("Amazon Linux 2023.7.20250512")
                .withSystemUUID(uuid(random))
                .endNodeInfo()
                .withImages(images(random))
                .endStatus()
                .build();
    }

    private static List<NodeCondition> conditions(String time) {
        List<NodeCondition> out = new ArrayList<>();
        out.add(condition(
                "MemoryPressure",
                "False",
                "KubeletHasSufficientMemory",
                "kubelet has sufficient memory available",
                time));
        out.add(condition("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure", time));
        out.add(condition(
                "PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available", time));
        out.add(condition("Ready", "True", "KubeletReady", "kubelet is posting ready status", time));
        out.add(condition("NetworkUnavailable", "False", "RouteCreated", "RouteController created a route", time));
        return out;
    }

    private static NodeCondition condition(String type, String status, String reason, String message, String time) {
        NodeCondition c = new NodeCondition();
        c.setType(type);
        c.setStatus(status);
        c.setReason(reason);
        c.setMessage(message);
        c.setLastHeartbeatTime(time);
        c.setLastTransitionTime(time);
        return c;
    }

    /** A digest name and a tag name for most images, as the kubelet reports them; sizes of 5 MB to 1.5 GB. */
    private static List<ContainerImage> images(SplittableRandom random) {
        List<ContainerImage> out = new ArrayList<>();
        for (int i = 0; i < IMAGES; i++) {
            String repo = "123456789012.dkr.ecr.eu-west-1.amazonaws.com/" + TEAMS[i % TEAMS.length] + "/service-" + i;
            List<String> names = new ArrayList<>();
            names.add(repo + "@sha256:" + hex(random, 64));
            if (i % 5 != 0) {
                names.add(repo + ":v" + (1 + i % 9) + "." + random.nextInt(40) + "." + random.nextInt(100));
            }
            out.add(new ContainerImage(names, 5_000_000L + random.nextLong(1_500_000_000L)));
        }
        return out;
    }

    private static String hex(SplittableRandom random, int digits) {
        StringBuilder out = new StringBuilder(digits);
        for (int i = 0; i < digits; i++) {
            out.append(Character.forDigit(random.nextInt(16), 16));
        }
        return out.toString();
    }

    private static String uuid(SplittableRandom random) {
        String h = hex(random, 32);
        return h.substring(0, 8) + "-" + h.substring(8, 12) + "-" + h.substring(12, 16) + "-" + h.substring(16, 20)
                + "-" + h.substring(20);
    }
}
