/**
 * Rate limits shared by the agent and the operator: {@link io.podnuma.ratelimit.TokenBucket}, which bounds the agent's
 * PodResources calls and the API server reviews of secure {@code /metrics}.
 */
package io.podnuma.ratelimit;
