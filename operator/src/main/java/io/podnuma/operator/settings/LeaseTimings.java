package io.podnuma.operator.settings;

import io.podnuma.crds.settings.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The leader election's timings, as controller-runtime's {@code --leader-elect-lease-duration}, {@code -renew-deadline}
 * and {@code -retry-period}. Their order matters: the leader must give up before the Lease can expire
 * ({@code renewDeadline < leaseDuration}), or a standby could take it over while the old leader still reconciles; and
 * it must get at least one more try within the deadline ({@code retryPeriod < renewDeadline}).
 *
 * @param leaseDuration how long the Lease holds without a renewal; a standby takes it over after that
 * @param renewDeadline how long the leader keeps failing to renew before it stops leading
 * @param retryPeriod how often a replica tries to take or renew the Lease
 */
public record LeaseTimings(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {

    /** The shortest value of each: below it the renewals alone keep the API server busy. */
    public static final Duration MIN = Duration.ofMillis(100);

    public static final Duration MAX = Duration.ofMinutes(10);
    static final String RANGE = "100ms..10m";

    /** The SDK's and client-go's defaults. */
    public static final LeaseTimings DEFAULTS =
            new LeaseTimings(Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2));

    public LeaseTimings {
        Objects.requireNonNull(leaseDuration, "leaseDuration");
        Objects.requireNonNull(renewDeadline, "renewDeadline");
        Objects.requireNonNull(retryPeriod, "retryPeriod");
        List<String> problems = problems(leaseDuration, renewDeadline, retryPeriod);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
    }

    /** What is wrong with the order of the three, each naming the settings, their values and what is allowed. */
    static List<String> problems(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
        List<String> out = new ArrayList<>();
        if (renewDeadline.compareTo(leaseDuration) >= 0) {
            out.add("renewDeadline " + Durations.format(renewDeadline) + " is not less than leaseDuration "
                    + Durations.format(leaseDuration)
                    + ": allowed a renewDeadline shorter than leaseDuration (the leader gives up before a standby"
                    + " may take the Lease over)");
        }
        if (retryPeriod.compareTo(renewDeadline) >= 0) {
            out.add("retryPeriod " + Durations.format(retryPeriod) + " is not less than renewDeadline "
                    + Durations.format(renewDeadline)
                    + ": allowed a retryPeriod shorter than renewDeadline (the leader gets another try to renew"
                    + " before it gives up)");
        }
        return out;
    }
}
