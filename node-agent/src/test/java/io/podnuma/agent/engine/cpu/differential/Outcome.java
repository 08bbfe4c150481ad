package io.podnuma.agent.engine.cpu.differential;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * What one implementation decided for a case, in the oracle's output shape, so that both sides are
 * compared field by field. Empty strings stand for empty CPU sets, as in the list syntax.
 *
 * @param createError the refusal of the configuration, or null
 * @param reserved the reserved CPUs
 * @param defaultSet the shared pool before the first operation
 * @param ops one outcome per operation
 * @param hang the kubelet did not finish the case ({@code ops} holds what it did before)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
record Outcome(
        String id,
        String createError,
        String reserved,

        @com.fasterxml.jackson.annotation.JsonProperty("default")
        String defaultSet,

        List<OpOutcome> ops,
        boolean hang) {

    Outcome {
        ops = ops == null ? List.of() : List.copyOf(ops);
        reserved = reserved == null ? "" : reserved;
        defaultSet = defaultSet == null ? "" : defaultSet;
    }

    static Outcome refused(String id, String message) {
        return new Outcome(id, message, "", "", List.of(), false);
    }

    /**
     * @param hints the CPU topology hints offered before the admission, when asked
     * @param cpus the exclusive CPUs granted (empty on failure or for a removal)
     * @param errorReason the admission failure reason, or null
     * @param errorMessage the failure text, or null
     * @param defaultSet the shared pool after the operation
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record OpOutcome(
            List<Hint> hints,
            String cpus,
            String errorReason,
            String errorMessage,

            @com.fasterxml.jackson.annotation.JsonProperty("default")
            String defaultSet) {

        OpOutcome {
            hints = hints == null ? List.of() : List.copyOf(hints);
            cpus = cpus == null ? "" : cpus;
            defaultSet = defaultSet == null ? "" : defaultSet;
        }
    }

    /** A CPU topology hint: NUMA nodes in list syntax and whether it is preferred. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Hint(String numaNodes, boolean preferred) {}
}
