package io.podnuma.agent.archfixture.engine;

import io.podnuma.agent.archfixture.runtime.FixtureRuntime;

/** A mistake for the layer rule's self-test: engine code reaching up into the runtime. */
public final class EngineCallingTheRuntime {
    public static int decide() {
        return FixtureRuntime.answer();
    }
}
