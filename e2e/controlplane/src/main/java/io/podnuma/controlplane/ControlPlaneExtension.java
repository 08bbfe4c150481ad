package io.podnuma.controlplane;

import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestWatcher;
import org.opentest4j.TestAbortedException;

/**
 * Gives tests a {@link ControlPlane} parameter. The plane starts once per JVM, on the first test class
 * that uses this extension, and stops when the test run ends (or the JVM exits). Without a Go toolchain
 * or the binaries, the tests are skipped with the reason printed.
 *
 * <p>When a test fails, the tail of every control-plane process's log is printed to stderr.
 */
public final class ControlPlaneExtension
        implements BeforeAllCallback, ParameterResolver, TestWatcher, LifecycleMethodExecutionExceptionHandler {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(ControlPlaneExtension.class);
    private static final int TAIL_LINES = 30;

    @Override
    public void beforeAll(ExtensionContext context) {
        plane(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == ControlPlane.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context)
            throws ParameterResolutionException {
        return plane(context);
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        printLogs(context, "test " + context.getDisplayName() + " failed");
    }

    @Override
    public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable throwable)
            throws Throwable {
        printLogs(context, "@BeforeAll of " + context.getDisplayName() + " failed");
        throw throwable;
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable throwable)
            throws Throwable {
        printLogs(context, "@BeforeEach of " + context.getDisplayName() + " failed");
        throw throwable;
    }

    @Override
    public void handleAfterEachMethodExecutionException(ExtensionContext context, Throwable throwable)
            throws Throwable {
        printLogs(context, "@AfterEach of " + context.getDisplayName() + " failed");
        throw throwable;
    }

    @Override
    public void handleAfterAllMethodExecutionException(ExtensionContext context, Throwable throwable) throws Throwable {
        printLogs(context, "@AfterAll of " + context.getDisplayName() + " failed");
        throw throwable;
    }

    private static LocalControlPlane plane(ExtensionContext context) {
        return shared(context).get();
    }

    private static void printLogs(ExtensionContext context, String why) {
        shared(context).started().ifPresent(plane -> {
            System.err.println("[controlplane] " + why + "; control plane logs in " + plane.logDir());
            plane.printLogTails(System.err, TAIL_LINES);
        });
    }

    /** One holder in the root store: the root context closes it after the last test class. */
    private static SharedPlane shared(ExtensionContext context) {
        return context.getRoot()
                .getStore(NAMESPACE)
                .computeIfAbsent(
                        SharedPlane.class, key -> new SharedPlane(LocalControlPlane::start), SharedPlane.class);
    }

    /**
     * Starts the plane at most once: a skip reason or a start-up failure is remembered, so later test
     * classes report the same cause instead of retrying a slow start.
     */
    static final class SharedPlane implements AutoCloseable {
        private final Supplier<LocalControlPlane> starter;
        private LocalControlPlane plane;
        private String unavailable;
        private RuntimeException failed;

        SharedPlane(Supplier<LocalControlPlane> starter) {
            this.starter = starter;
        }

        synchronized LocalControlPlane get() {
            if (plane == null && unavailable == null && failed == null) {
                try {
                    plane = starter.get();
                } catch (ControlPlaneUnavailableException e) {
                    unavailable = e.getMessage();
                } catch (RuntimeException e) {
                    failed = e;
                }
            }
            if (unavailable != null) {
                System.err.println("[controlplane] skipping: " + unavailable);
                throw new TestAbortedException("local control plane unavailable: " + unavailable);
            }
            if (failed != null) {
                throw new IllegalStateException(
                        "the local control plane failed to start: " + failed.getMessage(), failed);
            }
            return plane;
        }

        synchronized Optional<LocalControlPlane> started() {
            return Optional.ofNullable(plane);
        }

        @Override
        public synchronized void close() {
            if (plane != null) {
                plane.close();
            }
        }
    }
}
