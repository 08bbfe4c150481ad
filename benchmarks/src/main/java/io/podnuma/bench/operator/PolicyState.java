package io.podnuma.bench.operator;

import io.podnuma.crds.v1alpha1.NumaResourcePolicyStatus;

/** A policy as the API server has it: its spec's generation and the operator's status (null before the first). */
record PolicyState(Long generation, NumaResourcePolicyStatus status) {}
