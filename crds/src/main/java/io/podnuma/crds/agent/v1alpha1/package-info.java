/**
 * The node agent's configuration file ({@code kind: NodeAgentConfig}) as a type: the operator renders it, the agent
 * reads it (then overlays its flags and environment and validates), tests build it.
 */
package io.podnuma.crds.agent.v1alpha1;
