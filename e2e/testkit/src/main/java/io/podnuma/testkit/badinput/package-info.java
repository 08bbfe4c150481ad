/**
 * The bad-input catalogue (issue 14): one {@link io.podnuma.testkit.badinput.BadInput} record per case, one case
 * table per {@link io.podnuma.testkit.badinput.InputKind} in the module that consumes the input, and one generator
 * ({@link io.podnuma.testkit.badinput.BadInputDoc}) that keeps {@code docs/bad-input.md} in step with the tables.
 */
package io.podnuma.testkit.badinput;
