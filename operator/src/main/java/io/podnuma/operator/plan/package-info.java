/**
 * What one reconcile of a policy must do, decided from what it observed: the label writes that concern this policy
 * ({@link LabelPlan}), the Events its status transitions call for ({@link PolicyEvents}), and how far a deletion has
 * got ({@link Teardown}). Pure like {@code assign} and {@code status}: no client, no SDK, no files, no clock.
 */
package io.podnuma.operator.plan;
