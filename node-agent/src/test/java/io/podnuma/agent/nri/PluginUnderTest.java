package io.podnuma.agent.nri;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The {@link NriPlugin} a test starts, as a JUnit extension: closed after the test (after the test's own
 * {@code @AfterEach}), and the test fails if an exception escaped any thread while it ran, since the plugin's threads
 * must survive whatever the runtime sends.
 */
final class PluginUnderTest implements BeforeEachCallback, AfterEachCallback {

    private final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    private Thread.UncaughtExceptionHandler previous;
    private NriPlugin plugin;

    @Override
    public void beforeEach(ExtensionContext context) {
        uncaught.clear();
        previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> uncaught.add(e));
    }

    NriPlugin start(NriPluginSettings settings, NriHandler handler) {
        plugin = NriPlugin.start(settings, handler);
        return plugin;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        try {
            if (plugin != null) {
                plugin.close();
                assertThat(plugin.state()).isEqualTo(NriConnectionState.CLOSED);
            }
        } finally {
            plugin = null;
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
        assertThat(uncaught).as("exceptions that escaped a thread").isEmpty();
    }
}
