// Command accelplugin is a device plugin for tests: it offers the kubelet fake accelerators, each on the NUMA nodes
// it is given, so the kubelet's device manager hands them out as it would real ones (its topology manager aligns
// them with CPUs and memory) and its PodResources API reports them with that topology. A container holding some
// finds their ids in ACCEL_DEVICES.
//
//	accelplugin -dir /var/lib/kubelet/device-plugins -resource example.com/accel -devices accel-0=0,accel-1=1,accel-2=1
//
// It registers with the kubelet's socket in -dir and serves its own socket there; when the kubelet restarts (and
// removes the sockets of that directory) it serves and registers again. SIGTERM or SIGINT ends it.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	pluginapi "k8s.io/kubelet/pkg/apis/deviceplugin/v1beta1"
)

const socketName = "podnuma-accel.sock"

type plugin struct {
	pluginapi.UnimplementedDevicePluginServer
	devices []*pluginapi.Device
}

func (p *plugin) GetDevicePluginOptions(context.Context, *pluginapi.Empty) (*pluginapi.DevicePluginOptions, error) {
	return &pluginapi.DevicePluginOptions{}, nil
}

// ListAndWatch sends the devices once: they never change.
func (p *plugin) ListAndWatch(_ *pluginapi.Empty, stream pluginapi.DevicePlugin_ListAndWatchServer) error {
	if err := stream.Send(&pluginapi.ListAndWatchResponse{Devices: p.devices}); err != nil {
		return err
	}
	<-stream.Context().Done()
	return nil
}

func (p *plugin) Allocate(_ context.Context, r *pluginapi.AllocateRequest) (*pluginapi.AllocateResponse, error) {
	out := &pluginapi.AllocateResponse{}
	for _, c := range r.ContainerRequests {
		out.ContainerResponses = append(out.ContainerResponses, &pluginapi.ContainerAllocateResponse{
			Envs: map[string]string{"ACCEL_DEVICES": strings.Join(c.DevicesIds, ",")},
		})
	}
	return out, nil
}

func (p *plugin) PreStartContainer(context.Context, *pluginapi.PreStartContainerRequest) (*pluginapi.PreStartContainerResponse, error) {
	return &pluginapi.PreStartContainerResponse{}, nil
}

// parseDevices reads "id=node[+node...],..." into healthy devices with that NUMA topology.
func parseDevices(spec string) ([]*pluginapi.Device, error) {
	var out []*pluginapi.Device
	for _, item := range strings.Split(spec, ",") {
		id, nodes, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok || id == "" || nodes == "" {
			return nil, fmt.Errorf("-devices %q: %q is not id=numa-node[+numa-node...], e.g. accel-0=1", spec, item)
		}
		topology := &pluginapi.TopologyInfo{}
		for _, n := range strings.Split(nodes, "+") {
			node, err := strconv.ParseInt(n, 10, 64)
			if err != nil || node < 0 {
				return nil, fmt.Errorf("-devices %q: NUMA node %q of %s is not a number from 0", spec, n, id)
			}
			topology.Nodes = append(topology.Nodes, &pluginapi.NUMANode{ID: node})
		}
		out = append(out, &pluginapi.Device{ID: id, Health: pluginapi.Healthy, Topology: topology})
	}
	return out, nil
}

// serve listens on the plugin's socket and registers it with the kubelet.
func serve(p *plugin, dir, resource string) (*grpc.Server, error) {
	socket := filepath.Join(dir, socketName)
	if err := os.Remove(socket); err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	listener, err := net.Listen("unix", socket)
	if err != nil {
		return nil, err
	}
	server := grpc.NewServer()
	pluginapi.RegisterDevicePluginServer(server, p)
	go server.Serve(listener)

	conn, err := grpc.NewClient("unix://"+filepath.Join(dir, "kubelet.sock"),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		server.Stop()
		return nil, err
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = pluginapi.NewRegistrationClient(conn).Register(ctx, &pluginapi.RegisterRequest{
		Version:      pluginapi.Version,
		Endpoint:     socketName,
		ResourceName: resource,
		Options:      &pluginapi.DevicePluginOptions{},
	})
	if err != nil {
		server.Stop()
		return nil, fmt.Errorf("register %s with the kubelet: %w", resource, err)
	}
	return server, nil
}

func main() {
	dir := flag.String("dir", pluginapi.DevicePluginPath, "the kubelet's device-plugins directory")
	resource := flag.String("resource", "example.com/accel", "the extended resource the devices are")
	spec := flag.String("devices", "accel-0=0", "the devices: id=numa-node[+numa-node...], comma separated")
	flag.Parse()
	devices, err := parseDevices(*spec)
	if err != nil {
		fmt.Fprintln(os.Stderr, "accelplugin:", err)
		os.Exit(2)
	}
	p := &plugin{devices: devices}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)

	var server *grpc.Server
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		if server == nil {
			if server, err = serve(p, *dir, *resource); err != nil {
				fmt.Fprintln(os.Stderr, "accelplugin:", err, "(trying again in a second)")
				server = nil
			} else {
				fmt.Printf("accelplugin: %d devices of %s registered from %s\n", len(devices), *resource,
					filepath.Join(*dir, socketName))
			}
		} else if _, err := os.Stat(filepath.Join(*dir, socketName)); os.IsNotExist(err) {
			// The kubelet removes the sockets of its directory when it starts: register again.
			fmt.Println("accelplugin: the socket is gone (the kubelet restarted): registering again")
			server.Stop()
			server = nil
			continue
		}
		select {
		case <-stop:
			if server != nil {
				server.Stop()
			}
			os.Remove(filepath.Join(*dir, socketName))
			return
		case <-tick.C:
		}
	}
}
