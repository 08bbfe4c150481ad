package io.podnuma.agent.sysfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The checked-in fixtures are exactly what {@link FakeSysfsWriter} writes today, so a change to the
 * writer cannot silently leave stale trees. With {@code -Dpodnuma.fixtures.write=true} it rewrites them.
 */
class SysfsFixturesTest {

    static final java.util.List<FakeMachine> MACHINES = FakeMachine.ALL;

    /** Maven runs tests in the module directory. */
    private static final Path SOURCE = Path.of("src/test/resources/sysfs");

    @ParameterizedTest
    @FieldSource("MACHINES")
    void checkedInTreeMatchesTheWriter(FakeMachine m, @TempDir Path tmp) throws IOException {
        if (Boolean.getBoolean("podnuma.fixtures.write")) {
            Path target = SOURCE.resolve(m.name());
            deleteTree(target);
            FakeSysfsWriter.write(m, target);
            System.out.println("wrote fixture " + target.toAbsolutePath());
            return;
        }
        FakeSysfsWriter.write(m, tmp);
        // The source tree, not the copy in target/: resource copying never deletes stale files.
        Path checkedIn = SOURCE.resolve(m.name());
        assertThat(contents(Files.isDirectory(checkedIn) ? checkedIn : Fixtures.path(m.name())))
                .as(
                        "fixture %s differs from FakeSysfsWriter output; regenerate with -Dpodnuma.fixtures.write=true",
                        m.name())
                .isEqualTo(contents(tmp));
    }

    private static Map<String, String> contents(Path root) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                out.put(root.relativize(p).toString(), Files.readString(p));
            }
        }
        return out;
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
