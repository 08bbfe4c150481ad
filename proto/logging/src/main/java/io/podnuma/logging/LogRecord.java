package io.podnuma.logging;

/**
 * One record to write.
 *
 * @param epochMillis when it was logged
 * @param level its severity
 * @param logger the logger's name, e.g. {@code io.podnuma.agent.runtime.AgentDaemon}
 * @param thread the logging thread's name
 * @param message the message with its arguments filled in; null is written as {@code null}
 * @param thrown the exception logged with it, or null
 */
record LogRecord(long epochMillis, Level level, String logger, String thread, String message, Throwable thrown) {}
