/** Schema adjustments applied while the CRDs are generated, for what the generator's annotations cannot express. */
package io.podnuma.crds.schema;
