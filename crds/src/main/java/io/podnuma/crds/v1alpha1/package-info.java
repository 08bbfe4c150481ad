/**
 * The {@code podnuma.io/v1alpha1} API: {@link io.podnuma.crds.v1alpha1.NumaResourcePolicy} (what users write) and
 * {@link io.podnuma.crds.v1alpha1.NumaNodeState} (what each node agent reports). The CRD YAML under {@code crds/generated}
 * is generated from these types, so their annotations are the API's documentation and validation.
 */
package io.podnuma.crds.v1alpha1;
