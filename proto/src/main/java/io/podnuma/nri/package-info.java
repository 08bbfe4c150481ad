/**
 * The NRI API subset ({@code io.podnuma.nri.v1alpha1}, generated) and the ttrpc envelope ({@code io.podnuma.ttrpc},
 * generated) the node agent speaks as an NRI plugin; {@link io.podnuma.nri.NriVersion} names the NRI release.
 */
package io.podnuma.nri;
