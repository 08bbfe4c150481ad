package io.podnuma.agent.http;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/** What a route answers: status, content type and body (UTF-8). */
public record Response(int status, String contentType, String body) {

    public static final String TEXT = "text/plain; charset=utf-8";

    public Response {
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("HTTP status " + status + " is out of range: allowed 100..599");
        }
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(body, "body");
    }

    public static Response text(int status, String body) {
        return new Response(status, TEXT, body);
    }

    byte[] bytes() {
        return body.getBytes(StandardCharsets.UTF_8);
    }
}
