package io.podnuma.testkit.devices;

import io.podnuma.testkit.GoModules;
import io.podnuma.testkit.Repository;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The test kit's device plugin ({@code e2e/testkit/src/main/go/accelplugin}): fake accelerators, each on the NUMA node
 * it is given, registered with a real kubelet, which hands them out and reports them, with that topology, on its
 * PodResources API. Built static, so it runs in a guest as on this host.
 *
 * @param resource the extended resource the devices are, e.g. {@code example.com/accel}
 * @param devices each device's id and NUMA node, in the order the kubelet is told them
 */
public record AccelPlugin(String resource, Map<String, Integer> devices) {

    /** The resource the kit's pods ask for. */
    public static final String ACCEL = "example.com/accel";

    private static final Path MODULE = Repository.resolve("e2e/testkit/src/main/go/accelplugin");

    public AccelPlugin {
        if (devices.isEmpty()) {
            throw new IllegalArgumentException("a device plugin of " + resource + " without devices");
        }
        devices = new LinkedHashMap<>(devices);
    }

    /** {@code count} accelerators {@code accel-0, accel-1, ...}, all on NUMA node {@code numaNode}. */
    public static AccelPlugin onNumaNode(int count, int numaNode) {
        Map<String, Integer> devices = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            devices.put("accel-" + i, numaNode);
        }
        return new AccelPlugin(ACCEL, devices);
    }

    /** Why the plugin cannot be built here (no Go), if it cannot. */
    public static Optional<String> whyUnavailable() {
        return GoModules.whyUnavailable("the test device plugin", null);
    }

    /** Builds the plugin into {@code outDir} (copied from the kit's cache of Go programs once built). */
    public static Path build(Path outDir) throws IOException {
        return GoModules.buildStatic(MODULE, outDir.resolve("accelplugin"));
    }

    /** The same devices as {@code node-agent simulate --devices} reads them: resource → id → NUMA nodes. */
    public String simulateDevices() {
        StringBuilder yaml = new StringBuilder(resource).append(":\n");
        devices.forEach((id, node) ->
                yaml.append("  ").append(id).append(": [").append(node).append("]\n"));
        return yaml.toString();
    }

    /** Its arguments, serving from and registering in the kubelet's device plugin directory {@code dir}. */
    public List<String> arguments(String dir) {
        List<String> args = new ArrayList<>(List.of("-dir", dir, "-resource", resource, "-devices"));
        args.add(devices.entrySet().stream()
                .map(d -> d.getKey() + "=" + d.getValue())
                .collect(Collectors.joining(",")));
        return List.copyOf(args);
    }
}
