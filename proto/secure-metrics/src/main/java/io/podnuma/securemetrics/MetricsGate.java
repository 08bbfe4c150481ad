package io.podnuma.securemetrics;

import io.podnuma.ratelimit.TokenBucket;
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
 *
 * <p>A token without a cached decision spends one review of a {@link TokenBucket}; when none is left the scrape is
 * answered {@link Verdict#THROTTLED} without asking the API server, so a flood of random tokens costs it at most
 * {@link ReviewRate#burst()} reviews and then {@link ReviewRate#perSecond()}. Tokens with a cached decision do not
 * spend the budget and keep their answer during a flood; throttled tokens are not cached, so the flood cannot evict
 * them either.
 */
public final class MetricsGate {

    static final int MAX_ENTRIES = 256;

    /** The default {@code allowTtl}: short enough that removing a binding takes effect within a minute. */
    public static final Duration DEFAULT_TTL = Duration.ofMinutes(1);

    private final AccessReviews reviews;
    private final NonResourceRequest request;
    private final Duration allowTtl;
    private final Duration denyTtl;
    private final TokenBucket budget;
    private final Clock clock;
    private final Map<String, Cached> cache = new LinkedHashMap<>(16, 0.75f, true);

    private record Cached(Decision decision, Instant expires) {}

    /**
     * @param allowTtl how long an allowed or forbidden decision is reused; zero: never cached
     * @param denyTtl how long a rejected token's decision is reused; at most {@code allowTtl}
     * @param budget spent by every token without a cached decision
     */
    public MetricsGate(
            AccessReviews reviews,
            NonResourceRequest request,
            Duration allowTtl,
            Duration denyTtl,
            TokenBucket budget,
            Clock clock) {
        this.reviews = Objects.requireNonNull(reviews, "reviews");
        this.request = Objects.requireNonNull(request, "request");
        this.allowTtl = Objects.requireNonNull(allowTtl, "allowTtl");
        this.denyTtl = Objects.requireNonNull(denyTtl, "denyTtl");
        this.budget = Objects.requireNonNull(budget, "budget");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (allowTtl.isNegative() || denyTtl.isNegative() || denyTtl.compareTo(allowTtl) > 0) {
            throw new IllegalArgumentException(
                    "cache TTLs must be 0 or more, the rejected one at most the allowed one: allow " + allowTtl
                            + ", deny " + denyTtl);
        }
    }

    /**
     * A gate on {@code GET /metrics} with {@code ttl}, a rejected-token TTL of a sixth of it (10 s for 1 m) and
     * uncached tokens spending {@code budget}.
     */
    public static MetricsGate forScrapes(AccessReviews reviews, Duration ttl, TokenBucket budget, Clock clock) {
        return new MetricsGate(reviews, NonResourceRequest.SCRAPE, ttl, ttl.dividedBy(6), budget, clock);
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
        if (!budget.tryTake()) {
            return throttled(budget.untilNext());
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

    private Decision throttled(Duration wait) {
        return new Decision(
                Verdict.THROTTLED,
                "too many bearer tokens without a recent decision: " + budget.describe()
                        + ", are checked with the API server; retry in "
                        + Decision.wholeSeconds(wait) + " s (tokens checked recently are still answered)",
                Optional.of(wait));
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
