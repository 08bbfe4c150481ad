package io.podnuma.securemetrics;

import java.util.Objects;

/** A non-resource URL and the verb RBAC sees for it ({@code nonResourceURLs} and {@code verbs} of a rule). */
public record NonResourceRequest(String path, String verb) {

    /** What a Prometheus scrape is: {@code GET /metrics}. */
    public static final NonResourceRequest SCRAPE = new NonResourceRequest("/metrics", "get");

    public NonResourceRequest {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(verb, "verb");
    }
}
