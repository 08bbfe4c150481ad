package io.podnuma.agent.runtime.host;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupWriteException;
import io.podnuma.agent.cgroup.watch.FoundContainer;
import io.podnuma.agent.runtime.core.Pin;
import io.podnuma.agent.runtime.core.PinWriter;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Brings the host book in line with the container cgroups on the host: one found, or a scan of all of them. */
public final class HostScan {

    private static final Logger LOG = LoggerFactory.getLogger(HostScan.class);

    private final PinWriter pins;
    private final Supplier<List<FoundContainer>> scan;
    private final HostBook host;

    public HostScan(PinWriter pins, Supplier<List<FoundContainer>> scan, HostBook host) {
        this.pins = pins;
        this.scan = scan;
        this.host = host;
    }

    /** A container cgroup found on the host, with its cpuset now; empty when it is gone again already. */
    public Optional<HostContainer> discovered(FoundContainer f) {
        Optional<Pin> current;
        try {
            current = pins.read(f.path());
        } catch (CgroupWriteException e) {
            LOG.warn("{}", e.getMessage());
            current = Optional.empty();
        }
        if (current.isEmpty()) {
            host.forget(f.path()); // gone again already
            return Optional.empty();
        }
        HostContainer hc = new HostContainer(f.path(), f.container(), current);
        host.put(hc);
        return Optional.of(hc);
    }

    /**
     * A container the watch's first listing names: read if the book does not hold it yet. One the full sync read
     * already is not read again: the tick after the watch starts reads every container, and a write between the two
     * reads is drift, repaired and reported as such (read here, it would be taken as the container's state).
     */
    public Optional<HostContainer> listed(FoundContainer f) {
        Optional<HostContainer> known = host.get(f.path());
        return known.isPresent() ? known : discovered(f);
    }

    /** Every container cgroup on the host: new ones read, vanished ones forgotten. */
    public void rescan() {
        Set<CgroupPath> seen = new HashSet<>();
        for (FoundContainer f : scan.get()) {
            seen.add(f.path());
            if (!host.contains(f.path())) {
                discovered(f);
            }
        }
        for (CgroupPath p : host.paths()) {
            if (!seen.contains(p)) {
                host.forget(p);
            }
        }
    }
}
