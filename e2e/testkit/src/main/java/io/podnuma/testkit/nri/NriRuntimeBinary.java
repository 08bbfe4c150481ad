package io.podnuma.testkit.nri;

import io.podnuma.testkit.GoModules;
import io.podnuma.testkit.Repository;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The built {@code e2e/testkit/src/main/go/nriruntime}: the upstream NRI adaptation (runtime side, nri v0.12.3) and
 * the upstream stub (plugin side), one binary with two subcommands. Build once per test class; start any number of
 * {@link NriRuntimeHarness}es and {@link NriStubPlugin}s from it.
 */
public record NriRuntimeBinary(Path path) {

    static final Path MODULE = Repository.resolve("e2e/testkit/src/main/go/nriruntime");

    /** The version of {@code github.com/containerd/nri} the module pins (its go.mod). */
    public static final String NRI_VERSION = "v0.12.3";

    /** Why the harness cannot be built here (no Go 1.26+), if it cannot. */
    public static Optional<String> whyUnavailable() {
        return GoModules.whyUnavailable(
                "the NRI runtime harness (github.com/containerd/nri " + NRI_VERSION + ")", null);
    }

    /** Builds the binary into {@code outDir}: about 30 s with an empty Go build cache, under a second warm (README). */
    public static NriRuntimeBinary build(Path outDir) throws IOException {
        return new NriRuntimeBinary(GoModules.build(MODULE, outDir.resolve("nriruntime"), null));
    }
}
