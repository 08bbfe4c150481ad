package io.podnuma.agent.http;

/** The answer to a GET of one exact path; called on the server's thread, so it must be quick. */
@FunctionalInterface
public interface Route {
    Response get();
}
