package io.podnuma.operator.archfixture;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/** A mistake for the purity rule's self-test: a decision reading files. */
public final class FileReadingDecision {
    public static boolean configured(String name) {
        return Files.exists(Path.of(name));
    }

    public static boolean legacy(String name) {
        return new File(name).exists();
    }
}
