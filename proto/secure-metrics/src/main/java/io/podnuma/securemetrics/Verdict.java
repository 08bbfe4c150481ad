package io.podnuma.securemetrics;

/** What a scrape gets, with the HTTP status the kubelet's and controller-runtime's filters answer with. */
public enum Verdict {
    /** Authenticated and authorised: the metrics. */
    ALLOWED(200),
    /** No bearer token, or one the API server does not accept. */
    UNAUTHENTICATED(401),
    /** A valid token whose identity may not {@code get /metrics}. */
    FORBIDDEN(403),
    /** The API server could not be asked; the scrape may retry. */
    UNAVAILABLE(503),
    /**
     * Too many tokens without a cached decision at once: the API server is not asked, the scrape may retry after
     * {@link Decision#retryAfter()} (sent as {@code Retry-After}).
     */
    THROTTLED(429);

    private final int status;

    Verdict(int status) {
        this.status = status;
    }

    public int httpStatus() {
        return status;
    }
}
