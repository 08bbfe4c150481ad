/** Deliberate violations for {@code PurityRulesTest}'s self-tests; never part of the operator. */
package io.podnuma.operator.archfixture;
