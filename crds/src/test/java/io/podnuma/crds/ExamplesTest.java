package io.podnuma.crds;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Offline checks of the documented examples; CrdValidationIT proves the API server accepts them. */
class ExamplesTest {

    static final Path EXAMPLES = Path.of("examples");

    static List<Path> examples() throws IOException {
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            List<Path> yaml =
                    files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
            assertThat(yaml).as("examples in %s", EXAMPLES.toAbsolutePath()).hasSizeGreaterThanOrEqualTo(5);
            return yaml;
        }
    }

    @ParameterizedTest
    @MethodSource("examples")
    void isAPolicyNamedAfterItsFile(Path example) throws IOException {
        NumaResourcePolicy policy =
                GeneratedCrds.SERIALIZATION.unmarshal(Files.readString(example), NumaResourcePolicy.class);

        String fileName = example.getFileName().toString();
        assertThat(policy.getMetadata().getName()).isEqualTo(fileName.substring(0, fileName.length() - 5));
        assertThat(policy.getSpec().nodeSelector()).as("spec.nodeSelector").isNotNull();
    }

    @ParameterizedTest
    @MethodSource("examples")
    void opensWithAnExplanation(Path example) throws IOException {
        assertThat(Files.readAllLines(example).getFirst()).startsWith("# ");
    }
}
