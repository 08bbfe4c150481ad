/**
 * gRPC over unix domain sockets for the PodResources v1 API, the way the kubelet serves it. The API
 * types and stubs themselves are generated into {@code io.podnuma.podresources.v1} from
 * {@code src/main/proto/podresources/v1/api.proto}.
 */
package io.podnuma.podresources;
