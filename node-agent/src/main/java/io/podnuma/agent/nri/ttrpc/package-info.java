/**
 * Unary ttrpc (containerd's gRPC-like RPC for small peers): frames of a 10-byte big-endian header
 * {@code [data length u32][stream id u32][type u8][flags u8]} and at most 4 MiB of data; a request frame carries a
 * {@code ttrpc.Request}, its response frame (same stream id) a {@code ttrpc.Response}. Clients number their streams
 * 1, 3, 5, ... NRI uses neither streaming nor flags. Facts from {@code containerd/ttrpc} v1.2.9.
 */
package io.podnuma.agent.nri.ttrpc;
