package io.podnuma.testkit.agent;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Which {@code java} runs which agent jar: the test JVM's own with the jar {@code package} built, or an image's jlinked
 * runtime with the jar as it lies in the image (the image build trains its class cache with the runtime that will map
 * it).
 */
public record AgentRuntime(Path java, Path jar) {
    public AgentRuntime {
        Objects.requireNonNull(java, "java");
        Objects.requireNonNull(jar, "jar");
    }

    /** This JVM's {@code bin/java} and {@link AgentCliJar#locate()}. */
    public static AgentRuntime current() {
        return new AgentRuntime(Path.of(System.getProperty("java.home"), "bin", "java"), AgentCliJar.locate());
    }
}
