/** The {@code operator} command line: {@code operator run --config FILE}, with its health and metrics endpoints. */
package io.podnuma.operator.cli;
