/** The parts of a {@link io.podnuma.crds.v1alpha1.NumaResourcePolicy}: resource-manager settings and status entries. */
package io.podnuma.crds.v1alpha1.policy;
