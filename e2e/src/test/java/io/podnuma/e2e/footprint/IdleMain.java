package io.podnuma.e2e.footprint;

/**
 * The baseline pod's program: the agent image's JVM with the agent's flags, doing nothing until it is stopped. Its
 * class file is handed to the pod on a hostPath volume; the image has no shell or sleep of its own.
 */
public final class IdleMain {

    private IdleMain() {}

    public static void main(String[] args) throws InterruptedException {
        Thread.sleep(Long.MAX_VALUE);
    }
}
