package io.podnuma.agent.runtime;

import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupLayout;
import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupVersion;
import io.podnuma.agent.cgroup.watch.FoundContainer;
import io.podnuma.testkit.host.KubeletLikeHost;
import io.podnuma.testkit.host.PodContainer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent's own reading of a test kit {@link KubeletLikeHost}: its layout and naming on the kit's subtree, and the
 * containers its naming finds in the cgroups the kit made with the kubelet's names. The kit names the cgroups, the
 * agent parses them, so a naming bug of the agent fails the test instead of agreeing with itself.
 */
final class AgentOnHost {

    private AgentOnHost() {}

    static CgroupLayout layout(KubeletLikeHost host) {
        CgroupDriver driver = switch (host.driver()) {
            case CGROUPFS -> CgroupDriver.CGROUPFS;
            case SYSTEMD -> CgroupDriver.SYSTEMD;
        };
        return new CgroupLayout(CgroupVersion.V1, host.root(), host.root(), new CgroupNaming(driver));
    }

    /** Every container cgroup under the kubepods tree, as the agent's start-up scan sees them. */
    static List<FoundContainer> scan(KubeletLikeHost host) {
        CgroupNaming naming = layout(host).naming();
        List<FoundContainer> out = new ArrayList<>();
        try {
            for (Path d : host.cgroupDirs()) {
                CgroupPath p = CgroupPath.relativize(host.root(), host.root().resolve(d));
                naming.parse(p).ifPresent(c -> out.add(new FoundContainer(c, p)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /**
     * The agent's reading of the container cgroup the kit made for {@code c}.
     *
     * @throws AssertionError when the agent's naming does not see a container there
     */
    static FoundContainer found(KubeletLikeHost host, PodContainer c) {
        CgroupPath p = CgroupPath.relativize(host.root(), host.dir(c));
        return new FoundContainer(
                layout(host)
                        .naming()
                        .parse(p)
                        .orElseThrow(() -> new AssertionError("the agent's naming sees no container in " + p)),
                p);
    }
}
