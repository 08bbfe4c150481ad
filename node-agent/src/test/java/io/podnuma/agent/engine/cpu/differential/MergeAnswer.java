package io.podnuma.agent.engine.cpu.differential;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * The answer to a {@link MergeCase}, as the oracle prints it and as the Java side is recorded.
 *
 * @param hang set by the oracle when the case did not finish
 */
@JsonIgnoreProperties(ignoreUnknown = true)
record MergeAnswer(String id, boolean hang, Result merge) {

    /**
     * @param mask the merged NUMA nodes in ascending order, or null for "any"
     * @param admit whether the policy admits the pod
     * @param error the refusal of the configuration (options, distances), or null
     */
    record Result(List<Integer> mask, boolean preferred, boolean admit, String error) {

        static Result refused(String error) {
            return new Result(null, false, false, error);
        }
    }
}
