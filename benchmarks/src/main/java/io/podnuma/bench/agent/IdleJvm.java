package io.podnuma.bench.agent;

/** The footprint baseline: a JVM started with the agent's flags that does nothing until it is killed. */
public final class IdleJvm {

    private IdleJvm() {}

    public static void main(String[] args) throws InterruptedException {
        Thread.sleep(Long.MAX_VALUE);
    }
}
