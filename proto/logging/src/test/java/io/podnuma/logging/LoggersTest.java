package io.podnuma.logging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Through SLF4J's own lookup: this module's provider is the one on the class path. */
class LoggersTest {

    private final List<String> lines = new CopyOnWriteArrayList<>();

    @BeforeEach
    void capture() {
        Logs.redirect(lines::add);
    }

    @AfterEach
    void restore() {
        Logs.redirect(null);
        Logs.reset();
    }

    @Test
    void slf4jFindsThisProvider() {
        assertThat(LoggerFactory.getILoggerFactory()).isInstanceOf(PodnumaLoggerFactory.class);
        assertThat(LoggerFactory.getLogger("x")).isSameAs(LoggerFactory.getLogger("x"));
    }

    @Test
    void infoIsTheThresholdUntilConfigured() {
        Logger log = LoggerFactory.getLogger("io.podnuma.before");

        log.debug("hidden");
        log.info("shown {}", 1);

        assertThat(lines).singleElement().asString().endsWith(" [main] INFO io.podnuma.before - shown 1\n");
    }

    @Test
    void debugShowsDebugLinesOfLoggersMadeBeforeTheSettingsWereRead() {
        Logger early = LoggerFactory.getLogger("io.podnuma.early");
        assertThat(early.isDebugEnabled()).isFalse();

        Logs.configure(Level.DEBUG, LogFormat.TEXT);
        early.trace("trace {}", 1);
        early.debug("debug {}", 2);

        assertThat(early.isDebugEnabled()).isTrue();
        assertThat(early.isTraceEnabled()).isFalse();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).endsWith(" [main] DEBUG io.podnuma.logging.Logs - logging at debug as text\n");
        assertThat(lines.get(1)).endsWith("DEBUG io.podnuma.early - debug 2\n");
    }

    @Test
    void warnHidesInfoAndKeepsWarnAndError() {
        Logs.configure(Level.WARN, LogFormat.TEXT);
        Logger log = LoggerFactory.getLogger("io.podnuma.w");

        log.info("hidden");
        log.warn("careful");
        log.error("broken", new IllegalStateException("x"));
        log.atInfo().log("hidden too");

        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).endsWith("WARN io.podnuma.w - careful\n");
        assertThat(lines.get(1)).contains("ERROR io.podnuma.w - broken\njava.lang.IllegalStateException: x\n");
        assertThat(log.isInfoEnabled()).isFalse();
    }

    @Test
    void errorKeepsOnlyErrorsAndTraceKeepsEverything() {
        Logger log = LoggerFactory.getLogger("io.podnuma.e");
        Logs.configure(Level.ERROR, LogFormat.TEXT);
        log.warn("hidden");
        log.error("kept");
        Logs.configure(Level.TRACE, LogFormat.TEXT);
        log.trace("kept too");

        assertThat(lines).hasSize(3);
        assertThat(lines.get(1)).contains(" DEBUG io.podnuma.logging.Logs - logging at trace as text");
        assertThat(lines.get(2)).contains(" TRACE io.podnuma.e - kept too");
    }

    @Test
    void jsonLinesCarryFluentKeyValuesAndExceptions() throws Exception {
        Logs.configure(Level.INFO, LogFormat.JSON);
        Logger log = LoggerFactory.getLogger("io.podnuma.j");

        log.atWarn().addKeyValue("pod", "default/a").log("pinned {}", "0-3");
        log.error("failed", new IllegalStateException("boom"));

        ObjectMapper json = new ObjectMapper();
        assertThat(json.readTree(lines.get(0)).get("message").asText()).isEqualTo("pod=default/a pinned 0-3");
        assertThat(json.readTree(lines.get(1)).get("exception").get("class").asText())
                .isEqualTo("java.lang.IllegalStateException");
        assertThat(lines)
                .allSatisfy(l -> assertThat(l).startsWith("{\"time\":\"").endsWith("}\n"));
    }

    @Test
    void javaUtilLoggingIsWrittenTheSameWayAtTheSameThreshold() {
        Logs.configure(Level.WARN, LogFormat.TEXT);
        java.util.logging.Logger jul = java.util.logging.Logger.getLogger("io.grpc.Example");

        jul.info("hidden");
        jul.log(java.util.logging.Level.WARNING, "channel {0} broken", "c1");
        jul.severe("gone");

        assertThat(lines).hasSize(2);
        assertThat(lines.get(0))
                .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z \\[main] WARN"
                        + " io.grpc.Example - channel c1 broken\n");
        assertThat(lines.get(1)).contains(" ERROR io.grpc.Example - gone");
        assertThat(java.util.logging.Logger.getLogger("").getHandlers())
                .singleElement()
                .isInstanceOf(JulBridge.class);

        Logs.configure(Level.DEBUG, LogFormat.TEXT);
        jul.fine("fine is debug");
        assertThat(lines.get(3)).contains(" DEBUG io.grpc.Example - fine is debug");
    }
}
