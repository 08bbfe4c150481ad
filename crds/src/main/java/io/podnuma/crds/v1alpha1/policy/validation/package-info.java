/**
 * The CRD's OpenAPI and CEL rules on a {@code NumaResourcePolicy} spec, re-checked in Java for specs that reach a
 * reader without passing the API server (the node agent's file; the operator before it renders one).
 */
package io.podnuma.crds.v1alpha1.policy.validation;
