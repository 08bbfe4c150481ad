package io.podnuma.agent.archfixture.runtime.pods;

import io.podnuma.agent.archfixture.runtime.status.FixtureStatus;

/** One half of a mistake for the cycle rule's self-test (LayerRulesTest): a book that reports its own status. */
public final class FixturePodBook {
    public static int pods() {
        return 3;
    }

    public static String summary() {
        return FixtureStatus.line();
    }
}
