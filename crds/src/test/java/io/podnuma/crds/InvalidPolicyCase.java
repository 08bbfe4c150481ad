package io.podnuma.crds;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * One rejected policy from {@code src/test/resources/invalid/}: a YAML file whose {@code # expect: } comment lines
 * hold text that must appear verbatim in what {@code kubectl apply} prints. Adding a case is adding a file.
 */
record InvalidPolicyCase(String name, String yaml, List<String> expected) {

    static final Path DIR = Path.of("src/test/resources/invalid");
    private static final String EXPECT = "# expect: ";

    static List<InvalidPolicyCase> all() {
        try (Stream<Path> files = Files.list(DIR)) {
            return files.filter(p -> p.toString().endsWith(".yaml"))
                    .sorted()
                    .map(InvalidPolicyCase::read)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + DIR.toAbsolutePath(), e);
        }
    }

    static InvalidPolicyCase read(Path file) {
        try {
            String yaml = Files.readString(file);
            List<String> expected = yaml.lines()
                    .filter(l -> l.startsWith(EXPECT))
                    .map(l -> l.substring(EXPECT.length()))
                    .toList();
            String fileName = file.getFileName().toString();
            return new InvalidPolicyCase(fileName.substring(0, fileName.length() - ".yaml".length()), yaml, expected);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
