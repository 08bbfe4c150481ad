package io.podnuma.agent.archfixture.runtime;

/** A runtime class of the layer rule's self-test (LayerRulesTest). */
public final class FixtureRuntime {
    public static int answer() {
        return 42;
    }
}
