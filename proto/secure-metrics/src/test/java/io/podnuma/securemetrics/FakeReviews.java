package io.podnuma.securemetrics;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/** Tokens {@code reader} (allowed), {@code stranger} (valid, not allowed), {@code down} (the API fails). */
final class FakeReviews implements AccessReviews {

    final AtomicInteger tokenReviews = new AtomicInteger();
    final AtomicInteger accessReviews = new AtomicInteger();

    @Override
    public Optional<Requester> authenticate(BearerToken token) {
        tokenReviews.incrementAndGet();
        return switch (token.value()) {
            case "reader", "stranger" ->
                Optional.of(new Requester("system:serviceaccount:mon:" + token.value(), "u1", List.of("g"), Map.of()));
            case "down" -> throw new ReviewFailedException("connection refused", null);
            default -> Optional.empty();
        };
    }

    @Override
    public boolean allowed(Requester requester, NonResourceRequest request) {
        accessReviews.incrementAndGet();
        return requester.username().endsWith(":reader") && request.equals(NonResourceRequest.SCRAPE);
    }
}
