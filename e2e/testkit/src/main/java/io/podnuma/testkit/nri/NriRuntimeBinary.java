package io.podnuma.testkit.nri;

import io.podnuma.testkit.GoModules;
import io.podnuma.testkit.Repository;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A built harness module ({@code e2e/testkit/src/main/go/nriruntime}, or an older-version twin, {@link NriModule}):
 * the upstream NRI adaptation (runtime side) and the upstream stub (plugin side), one binary with subcommands. Build
 * once per test class; start any number of {@link NriRuntimeHarness}es and {@link NriStubPlugin}s from it.
 */
public record NriRuntimeBinary(Path path, NriModule module) {

    private static final Path GO = Repository.resolve("e2e/testkit/src/main/go");

    /** The version of {@code github.com/containerd/nri} the main module pins (its go.mod). */
    public static final String NRI_VERSION = "v0.12.3";

    /** Why the harness cannot be built here (no Go 1.26+), if it cannot. */
    public static Optional<String> whyUnavailable() {
        return GoModules.whyUnavailable(
                "the NRI runtime harness (github.com/containerd/nri " + NRI_VERSION + ")", null);
    }

    /** Builds the main module into {@code outDir}: about 30 s with an empty Go build cache, under a second warm. */
    public static NriRuntimeBinary build(Path outDir) throws IOException {
        return build(outDir, NriModule.NRI_0_12_3);
    }

    /** Builds {@code module} into {@code outDir}. */
    public static NriRuntimeBinary build(Path outDir, NriModule module) throws IOException {
        return new NriRuntimeBinary(
                GoModules.build(GO.resolve(module.directory()), outDir.resolve(module.directory()), null), module);
    }
}
