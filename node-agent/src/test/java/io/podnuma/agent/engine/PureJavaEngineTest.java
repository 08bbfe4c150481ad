package io.podnuma.agent.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The topology and memory engines stay pure: no imports beyond {@code java.lang}, {@code java.util},
 * {@code java.math} and the engine itself, so they run the same in the agent, in {@code simulate} and in
 * tests. (A checkstyle import-control rule can replace this once the build has one.)
 */
class PureJavaEngineTest {

    private static final Pattern IMPORT = Pattern.compile("^import\\s+(static\\s+)?([\\w.]+)", Pattern.MULTILINE);
    private static final List<String> ALLOWED =
            List.of("java.lang.", "java.util.", "java.math.", "io.podnuma.agent.engine.");

    @Test
    void topologyAndMemoryPackagesImportOnlyTheJdkCoreAndTheEngine() throws IOException {
        Path root = Path.of("src/main/java/io/podnuma/agent/engine");
        List<String> violations = new ArrayList<>();
        int files = 0;
        for (String pkg : List.of("topology", "memory")) {
            try (Stream<Path> sources = Files.walk(root.resolve(pkg))) {
                for (Path source :
                        sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                    files++;
                    Matcher m = IMPORT.matcher(Files.readString(source));
                    while (m.find()) {
                        String imported = m.group(2);
                        if (ALLOWED.stream().noneMatch(imported::startsWith)) {
                            violations.add(source + " imports " + imported);
                        }
                    }
                }
            }
        }
        assertThat(files)
                .as("engine sources found under %s", root.toAbsolutePath())
                .isGreaterThan(10);
        assertThat(violations)
                .as("imports outside java.lang, java.util, java.math and the engine")
                .isEmpty();
    }
}
