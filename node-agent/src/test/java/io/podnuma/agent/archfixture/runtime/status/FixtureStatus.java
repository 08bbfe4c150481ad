package io.podnuma.agent.archfixture.runtime.status;

import io.podnuma.agent.archfixture.runtime.pods.FixturePodBook;

/** The other half: the status reads the book that calls it, so neither package stands without the other. */
public final class FixtureStatus {
    public static String line() {
        return FixturePodBook.pods() + " pods";
    }
}
