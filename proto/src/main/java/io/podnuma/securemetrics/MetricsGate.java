package io.podnuma.securemetrics;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Decides a scrape from its {@code Authorization} header: a TokenReview for who the token is, then a
 * SubjectAccessReview for {@code get} on the non-resource URL. Decisions are cached by the token's digest, so a scrape
 * every second costs two API calls per {@code allowTtl}, not per scrape: an allowed or forbidden decision for
 * {@code allowTtl}, a rejected token for {@code denyTtl} (shorter, so a freshly granted role takes effect soon). A
 * failed review is never cached. The cache holds at most {@link #MAX_ENTRIES} tokens (the least recently used go
 * first), so a flood of random tokens cannot grow it.
 */
public final class MetricsGate {

    static final int MAX_ENTRIES = 256;

    /** The default {@code allowTtl}: short enough that removing a binding takes effect within a minute. */
    public static final Duration DEFAULT_TTL = Duration.ofMinutes(1);

    private final AccessReviews reviews;
    private final NonResourceRequest request;
    private final Duration allowTtl;
    private final Duration denyTtl;
    private final Clock clock;
    private final Map<String, Cached> cache = new LinkedHashMap<>(16, 0.75f, true);

    private record Cached(Decision decision, Instant expires) {}

    /**
     * @param allowTtl how long an allowed or forbidden decision is reused; zero: never cached
     * @param denyTtl how long a rejected token's decision is reused; at most {@code allowTtl}
     */
    public MetricsGate(
            AccessReviews reviews, NonResourceRequest request, Duration allowTtl, Duration denyTtl, Clock clock) {
        this.reviews = Objects.requireNonNull(reviews, "reviews");
        this.request = Objects.requireNonNull(request, "request");
        this.allowTtl = Objects.requireNonNull(allowTtl, "allowTtl");
        this.denyTtl = Objects.requireNonNull(denyTtl, "denyTtl");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (allowTtl.isNegative() || denyTtl.isNegative() || denyTtl.compareTo(allowTtl) > 0) {
            throw new IllegalArgumentException(
                    "cache TTLs must be 0 or more, the rejected one at most the allowed one: allow " + allowTtl
                            + ", deny " + denyTtl);
        }
    }

    /** A gate on {@code GET /metrics} with {@code ttl} and a rejected-token TTL of a sixth of it (10 s for 1 m). */
    public static MetricsGate forScrapes(AccessReviews reviews, Duration ttl, Clock clock) {
        return new MetricsGate(reviews, NonResourceRequest.SCRAPE, ttl, ttl.dividedBy(6), clock);
    }

    public Decision admit(String authorizationHeader) {
        Optional<BearerToken> token = BearerToken.fromHeader(authorizationHeader);
        if (token.isEmpty()) {
            return new Decision(
                    Verdict.UNAUTHENTICATED,
                    authorizationHeader == null
                            ? "no Authorization header: send a bearer token (Authorization: Bearer <token>)"
                            : "the Authorization header holds no usable bearer token");
        }
        String key = token.get().digest();
        Instant now = clock.instant();
        synchronized (cache) {
            Cached c = cache.get(key);
            if (c != null && now.isBefore(c.expires())) {
                return c.decision();
            }
        }
        Decision d;
        try {
            d = review(token.get());
        } catch (ReviewFailedException e) {
            return new Decision(Verdict.UNAVAILABLE, "cannot check the token with the API server: " + e.getMessage());
        }
        Duration ttl = d.verdict() == Verdict.UNAUTHENTICATED ? denyTtl : allowTtl;
        if (!ttl.isZero()) {
            synchronized (cache) {
                cache.put(key, new Cached(d, now.plus(ttl)));
                while (cache.size() > MAX_ENTRIES) {
                    cache.remove(cache.keySet().iterator().next());
                }
            }
        }
        return d;
    }

    private Decision review(BearerToken token) {
        Optional<Requester> who = reviews.authenticate(token);
        if (who.isEmpty()) {
            return new Decision(Verdict.UNAUTHENTICATED, "the API server does not accept this token");
        }
        if (!reviews.allowed(who.get(), request)) {
            return new Decision(
                    Verdict.FORBIDDEN,
                    "user \"" + who.get().username() + "\" may not " + request.verb() + " " + request.path()
                            + " (bind it to a ClusterRole with nonResourceURLs [\"" + request.path() + "\"], verbs [\""
                            + request.verb() + "\"])");
        }
        return new Decision(
                Verdict.ALLOWED, "user \"" + who.get().username() + "\" may " + request.verb() + " " + request.path());
    }

    /** Tokens whose decisions are held now (for tests and debugging). */
    int cachedTokens() {
        synchronized (cache) {
            return cache.size();
        }
    }
}
