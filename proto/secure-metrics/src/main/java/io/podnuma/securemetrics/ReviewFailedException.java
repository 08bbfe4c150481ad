package io.podnuma.securemetrics;

/** The API server could not be asked or gave no usable answer; never cached, the next scrape asks again. */
public final class ReviewFailedException extends RuntimeException {

    public ReviewFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
