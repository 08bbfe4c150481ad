// Command podresclient calls a PodResources v1 server with the kubelet's own client types
// (k8s.io/kubelet/pkg/apis/podresources/v1) and prints what it received, one "<key> <value>" line each;
// message bodies are single-line protobuf JSON. The node agent's PodResourcesGoClientIT runs it against
// the agent's real socket; the test kit builds it (io.podnuma.testkit.podresources.PodResourcesGoClient).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	podresourcesv1 "k8s.io/kubelet/pkg/apis/podresources/v1"
)

const usage = `usage:
  podresclient query <socket> <namespace> <pod>   List, Get of <namespace>/<pod>, Get of an absent pod, GetAllocatableResources
  podresclient burst <socket> <calls>             <calls> List calls back to back; prints how each ended`

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "podresclient:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	switch {
	case len(args) == 4 && args[0] == "query":
		return query(args[1], args[2], args[3])
	case len(args) == 3 && args[0] == "burst":
		calls, err := strconv.Atoi(args[2])
		if err != nil {
			return err
		}
		return burst(args[1], calls)
	default:
		return errors.New(usage)
	}
}

func connect(socket string) (podresourcesv1.PodResourcesListerClient, func(), error) {
	conn, err := grpc.NewClient("unix://"+socket, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, nil, err
	}
	return podresourcesv1.NewPodResourcesListerClient(conn), func() { _ = conn.Close() }, nil
}

func printJSON(key string, m proto.Message) error {
	body, err := protojson.Marshal(m)
	if err != nil {
		return err
	}
	fmt.Printf("%s %s\n", key, body)
	return nil
}

func query(socket, namespace, pod string) error {
	client, closeConn, err := connect(socket)
	if err != nil {
		return err
	}
	defer closeConn()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	list, err := client.List(ctx, &podresourcesv1.ListPodResourcesRequest{})
	if err != nil {
		return fmt.Errorf("List: %w", err)
	}
	if err := printJSON("List", list); err != nil {
		return err
	}
	get, err := client.Get(ctx, &podresourcesv1.GetPodResourcesRequest{PodName: pod, PodNamespace: namespace})
	if err != nil {
		return fmt.Errorf("Get: %w", err)
	}
	if err := printJSON("Get", get); err != nil {
		return err
	}
	_, err = client.Get(ctx, &podresourcesv1.GetPodResourcesRequest{PodName: "absent", PodNamespace: namespace})
	fmt.Printf("Get-absent.code %s\n", status.Code(err))
	fmt.Printf("Get-absent.message %s\n", status.Convert(err).Message())
	alloc, err := client.GetAllocatableResources(ctx, &podresourcesv1.AllocatableResourcesRequest{})
	if err != nil {
		return fmt.Errorf("GetAllocatableResources: %w", err)
	}
	return printJSON("GetAllocatableResources", alloc)
}

func burst(socket string, calls int) error {
	client, closeConn, err := connect(socket)
	if err != nil {
		return err
	}
	defer closeConn()
	for i := 0; i < calls; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err := client.List(ctx, &podresourcesv1.ListPodResourcesRequest{})
		cancel()
		fmt.Printf("call %s %s\n", status.Code(err), status.Convert(err).Message())
	}
	return nil
}
