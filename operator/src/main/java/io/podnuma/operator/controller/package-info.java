/**
 * The java-operator-sdk side: {@link PolicyReconciler} (the primary is {@code NumaResourcePolicy}) with its informers
 * and the secondary-to-primary mappers ({@link PolicyMappers}). It turns the SDK's calls into {@code PolicySteps}
 * calls and their results into the SDK's controls.
 */
package io.podnuma.operator.controller;
