package io.podnuma.agent.sysfs;

import io.podnuma.agent.engine.machine.CpuTopology;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/** The checked-in fake sysfs trees under {@code src/test/resources/sysfs/<name>}. */
public final class Fixtures {

    private Fixtures() {}

    public static Path path(String name) {
        URL url = Fixtures.class.getClassLoader().getResource("sysfs/" + name);
        if (url == null) {
            throw new IllegalStateException("no sysfs fixture \"" + name + "\" on the test classpath");
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    public static CpuTopology topology(FakeMachine m) {
        try {
            return new SysfsTopologyReader(path(m.name())).read();
        } catch (SysfsException e) {
            throw new IllegalStateException("fixture " + m.name() + " does not load: " + e.getMessage(), e);
        }
    }
}
