package io.podnuma.securemetrics;

import java.util.Optional;

/** The two questions a scrape raises, answered by the API server ({@link KubeAccessReviews}) or by a test. */
public interface AccessReviews {

    /**
     * @return who the token belongs to; empty when the API server does not accept it
     * @throws ReviewFailedException when the question could not be asked or answered
     */
    Optional<Requester> authenticate(BearerToken token);

    /**
     * @param request the non-resource URL and verb, e.g. {@code /metrics} and {@code get}
     * @throws ReviewFailedException when the question could not be asked or answered
     */
    boolean allowed(Requester requester, NonResourceRequest request);
}
