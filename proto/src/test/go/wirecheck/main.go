// Command wirecheck is the Go half of podnuma's PodResources wire-compatibility check. It uses the
// kubelet's own generated types and gRPC stubs (k8s.io/kubelet/pkg/apis/podresources/v1) and talks
// to the Java side through files, stdout lines and a unix-socket gRPC connection.
//
// Output is line-based, "<key> <value>", so the Java test needs no JSON envelope parser; message
// bodies are single-line protobuf JSON.
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	podresourcesv1 "k8s.io/kubelet/pkg/apis/podresources/v1"
)

const usage = `usage:
  wirecheck encode <dir>            write every fixture, encoded by the upstream Go types, to <dir>/<name>.bin
  wirecheck decode <name> <file>    decode <file> as fixture <name>'s type and report it
  wirecheck client <socket>         call List, Get and GetAllocatableResources on a server at <socket>
  wirecheck server <socket>         serve the fixtures at <socket> until stdin closes
  wirecheck descriptor              print the upstream api.proto file descriptor`

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "wirecheck:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	switch {
	case args[0] == "descriptor" && len(args) == 1:
		return printDescriptor()
	case args[0] == "encode" && len(args) == 2:
		return encode(args[1])
	case args[0] == "decode" && len(args) == 3:
		return decode(args[1], args[2])
	case args[0] == "client" && len(args) == 2:
		return client(args[1])
	case args[0] == "server" && len(args) == 2:
		return serve(args[1])
	default:
		return fmt.Errorf("unknown command %q\n%s", args, usage)
	}
}

var deterministic = proto.MarshalOptions{Deterministic: true}

func encode(dir string) error {
	for _, f := range fixtures() {
		data, err := deterministic.Marshal(f.value)
		if err != nil {
			return fmt.Errorf("encoding %s: %w", f.name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.name+".bin"), data, 0o644); err != nil {
			return err
		}
		fmt.Printf("wrote %s %d\n", f.name, len(data))
	}
	return nil
}

func decode(name, file string) error {
	f, ok := fixtureNamed(name)
	if !ok {
		return fmt.Errorf("no fixture named %q", name)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	got := f.value.ProtoReflect().New().Interface()
	if err := proto.Unmarshal(data, got); err != nil {
		return fmt.Errorf("decoding %s as %s: %w", file, got.ProtoReflect().Descriptor().FullName(), err)
	}
	report(name, got, f.value)
	reencoded, err := deterministic.Marshal(got)
	if err != nil {
		return err
	}
	fmt.Printf("%s.reencoded-identical %t\n", name, string(reencoded) == string(data))
	return nil
}

// report prints what the Java side checks: the message as JSON, whether it equals the Go fixture,
// and the paths of fields the Go types did not recognise (a field-number or wire-type mismatch).
func report(name string, got, want proto.Message) {
	unknown := unknownFieldPaths(got.ProtoReflect(), string(got.ProtoReflect().Descriptor().Name()))
	fmt.Printf("%s.unknown-fields %d %v\n", name, len(unknown), unknown)
	fmt.Printf("%s.equals-go-fixture %t\n", name, proto.Equal(got, want))
	body, err := protojson.MarshalOptions{Multiline: false}.Marshal(got)
	if err != nil {
		fmt.Printf("%s.json-error %v\n", name, err)
		return
	}
	fmt.Printf("%s.json %s\n", name, body)
}

func unknownFieldPaths(m protoreflect.Message, path string) []string {
	var paths []string
	if len(m.GetUnknown()) > 0 {
		paths = append(paths, path)
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.Message() == nil {
			return true
		}
		child := path + "." + string(fd.Name())
		if fd.IsList() {
			list := v.List()
			for i := 0; i < list.Len(); i++ {
				paths = append(paths, unknownFieldPaths(list.Get(i).Message(), fmt.Sprintf("%s[%d]", child, i))...)
			}
			return true
		}
		paths = append(paths, unknownFieldPaths(v.Message(), child)...)
		return true
	})
	return paths
}

func client(socket string) error {
	conn, err := grpc.NewClient("unix://"+socket, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	lister := podresourcesv1.NewPodResourcesListerClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	list, err := lister.List(ctx, &podresourcesv1.ListPodResourcesRequest{})
	if err != nil {
		return fmt.Errorf("List: %w", err)
	}
	report("List", list, listResponse())

	get, err := lister.Get(ctx, getRequest())
	if err != nil {
		return fmt.Errorf("Get: %w", err)
	}
	report("Get", get, getResponse())

	_, err = lister.Get(ctx, &podresourcesv1.GetPodResourcesRequest{PodName: "absent", PodNamespace: "prod"})
	fmt.Printf("Get-absent.code %s\n", status.Code(err))

	alloc, err := lister.GetAllocatableResources(ctx, &podresourcesv1.AllocatableResourcesRequest{})
	if err != nil {
		return fmt.Errorf("GetAllocatableResources: %w", err)
	}
	report("GetAllocatableResources", alloc, allocatableResponse())
	return nil
}

// fixtureServer answers with the Go fixtures and reports each request it decoded, so the Java test
// sees its own client's requests through the upstream types.
type fixtureServer struct {
	podresourcesv1.UnimplementedPodResourcesListerServer
}

func (fixtureServer) List(_ context.Context, req *podresourcesv1.ListPodResourcesRequest) (*podresourcesv1.ListPodResourcesResponse, error) {
	report("received-List", req, &podresourcesv1.ListPodResourcesRequest{})
	return listResponse(), nil
}

func (fixtureServer) Get(_ context.Context, req *podresourcesv1.GetPodResourcesRequest) (*podresourcesv1.GetPodResourcesResponse, error) {
	report("received-Get", req, getRequest())
	for _, pod := range listResponse().GetPodResources() {
		if pod.GetName() == req.GetPodName() && pod.GetNamespace() == req.GetPodNamespace() {
			return &podresourcesv1.GetPodResourcesResponse{PodResources: pod}, nil
		}
	}
	return nil, status.Errorf(codes.NotFound, "pod %s/%s not found", req.GetPodNamespace(), req.GetPodName())
}

func (fixtureServer) GetAllocatableResources(_ context.Context, req *podresourcesv1.AllocatableResourcesRequest) (*podresourcesv1.AllocatableResourcesResponse, error) {
	report("received-GetAllocatableResources", req, &podresourcesv1.AllocatableResourcesRequest{})
	return allocatableResponse(), nil
}

func serve(socket string) error {
	_ = os.Remove(socket)
	listener, err := net.Listen("unix", socket)
	if err != nil {
		return err
	}
	server := grpc.NewServer()
	podresourcesv1.RegisterPodResourcesListerServer(server, fixtureServer{})
	go func() {
		// The Java test closes our stdin to stop us, so no process is left behind if it dies.
		_, _ = bufio.NewReader(os.Stdin).ReadString(0)
		server.GracefulStop()
	}()
	fmt.Printf("listening %s\n", socket)
	return server.Serve(listener)
}

// printDescriptor prints the schema compiled into the upstream Go package, so the Java test can compare
// it with ours message by message, without trusting a hand-written table.
func printDescriptor() error {
	file := (&podresourcesv1.PodResources{}).ProtoReflect().Descriptor().ParentFile()
	body, err := protojson.Marshal(protodesc.ToFileDescriptorProto(file))
	if err != nil {
		return err
	}
	fmt.Printf("descriptor.path %s\n", file.Path())
	fmt.Printf("descriptor.json %s\n", body)
	return nil
}
