/**
 * Leader election on a Lease, decided without comparing two machines' wall clocks. {@link LeaseElection} decides
 * each attempt from what the Lease says and what this replica has seen of it; {@link LeasePort} reads and writes the
 * Lease. A standby counts a holder's lease on its own monotonic clock from the moment it saw the Lease last change, as
 * client-go does, so a standby whose wall clock runs ahead cannot take a Lease its holder still renews. Pure like
 * {@code plan}: no client, no SDK, no files, no clock (both times are parameters).
 */
package io.podnuma.operator.election;
