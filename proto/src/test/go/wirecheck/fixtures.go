package main

import (
	"google.golang.org/protobuf/proto"
	podresourcesv1 "k8s.io/kubelet/pkg/apis/podresources/v1"
)

// The same values are built independently in Java (WireFixtures.java); the two sides must agree.

const gib = uint64(1) << 30

func numa(ids ...int64) *podresourcesv1.TopologyInfo {
	nodes := make([]*podresourcesv1.NUMANode, 0, len(ids))
	for _, id := range ids {
		nodes = append(nodes, &podresourcesv1.NUMANode{ID: id})
	}
	return &podresourcesv1.TopologyInfo{Nodes: nodes}
}

func mem(memoryType string, size uint64, topology *podresourcesv1.TopologyInfo) *podresourcesv1.ContainerMemory {
	return &podresourcesv1.ContainerMemory{MemoryType: memoryType, Size: size, Topology: topology}
}

// numaDBPod is a pod-scope pod with an 8-CPU bubble, an exclusive sidecar, a pinned main container
// with a device and a DRA claim, and a shared logger.
func numaDBPod() *podresourcesv1.PodResources {
	return &podresourcesv1.PodResources{
		Name:      "numa-db",
		Namespace: "prod",
		CpuIds:    []int64{2, 3, 4, 5, 6, 7, 8, 9},
		Memory: []*podresourcesv1.ContainerMemory{
			mem("memory", 8*gib, numa(0)),
			mem("hugepages-2Mi", 1*gib, numa(0)),
		},
		Containers: []*podresourcesv1.ContainerResources{
			{
				Name:   "sidecar-a",
				CpuIds: []int64{2},
				Memory: []*podresourcesv1.ContainerMemory{mem("memory", 1*gib, numa(0))},
			},
			{
				Name:   "main",
				CpuIds: []int64{3, 4, 5, 6, 7, 8},
				Memory: []*podresourcesv1.ContainerMemory{mem("memory", 6*gib, numa(0))},
				Devices: []*podresourcesv1.ContainerDevices{{
					ResourceName: "example.com/nic",
					DeviceIds:    []string{"vf-0", "vf-1"},
					Topology:     numa(0),
				}},
				DynamicResources: []*podresourcesv1.DynamicResource{{
					ClaimName:      "gpu-claim",
					ClaimNamespace: "prod",
					ClaimResources: []*podresourcesv1.ClaimResource{
						{
							CdiDevices: []*podresourcesv1.CDIDevice{
								{Name: "example.com/gpu=gpu0"},
								{Name: "example.com/gpu=gpu0-mig"},
							},
							DriverName: "gpu.example.com",
							PoolName:   "node-a",
							DeviceName: "gpu-0",
							ShareId:    proto.String("4f1c-share"),
						},
						{
							DriverName: "gpu.example.com",
							PoolName:   "node-a",
							DeviceName: "gpu-1",
						},
					},
				}},
			},
			{Name: "logger"},
		},
	}
}

// edgePod carries values whose encoding differs between careless and careful implementations:
// unsigned sizes above 2^63, negative and large int64 ids, an explicitly present empty share id,
// and non-ASCII text.
func edgePod() *podresourcesv1.PodResources {
	return &podresourcesv1.PodResources{
		Name:      "edge-ü",
		Namespace: "wirecheck",
		CpuIds:    []int64{0, 1 << 40, -1},
		Memory: []*podresourcesv1.ContainerMemory{
			mem("memory", ^uint64(0), numa(1<<33, -7)),
			mem("hugepages-1Gi", 0, nil),
		},
		Containers: []*podresourcesv1.ContainerResources{{
			Name: "c",
			DynamicResources: []*podresourcesv1.DynamicResource{{
				ClaimName: "claim-without-namespace",
				ClaimResources: []*podresourcesv1.ClaimResource{{
					DeviceName: "dev",
					ShareId:    proto.String(""),
				}},
			}},
		}},
	}
}

// plainPod has no pod-level resources and a container with nothing assigned.
func plainPod() *podresourcesv1.PodResources {
	return &podresourcesv1.PodResources{
		Name:       "web",
		Namespace:  "default",
		Containers: []*podresourcesv1.ContainerResources{{Name: "nginx"}},
	}
}

func listResponse() *podresourcesv1.ListPodResourcesResponse {
	return &podresourcesv1.ListPodResourcesResponse{
		PodResources: []*podresourcesv1.PodResources{numaDBPod(), plainPod(), edgePod()},
	}
}

func getRequest() *podresourcesv1.GetPodResourcesRequest {
	return &podresourcesv1.GetPodResourcesRequest{PodName: "numa-db", PodNamespace: "prod"}
}

func getResponse() *podresourcesv1.GetPodResourcesResponse {
	return &podresourcesv1.GetPodResourcesResponse{PodResources: numaDBPod()}
}

func allocatableResponse() *podresourcesv1.AllocatableResourcesResponse {
	return &podresourcesv1.AllocatableResourcesResponse{
		Devices: []*podresourcesv1.ContainerDevices{
			{ResourceName: "example.com/nic", DeviceIds: []string{"vf-0", "vf-1", "vf-2", "vf-3"}, Topology: numa(0)},
			{ResourceName: "example.com/nic", DeviceIds: []string{"vf-4", "vf-5"}, Topology: numa(1)},
		},
		CpuIds: []int64{1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15},
		Memory: []*podresourcesv1.ContainerMemory{
			mem("memory", 60*gib, numa(0)),
			mem("memory", 62*gib, numa(1)),
			mem("hugepages-1Gi", 4*gib, numa(0, 1)),
		},
	}
}

// fixture pairs a name used on the command line and in file names with the message and an empty
// instance of its type for decoding.
type fixture struct {
	name  string
	value proto.Message
}

func fixtures() []fixture {
	return []fixture{
		{"list-response", listResponse()},
		{"get-request", getRequest()},
		{"get-response", getResponse()},
		{"allocatable-response", allocatableResponse()},
	}
}

func fixtureNamed(name string) (fixture, bool) {
	for _, f := range fixtures() {
		if f.name == name {
			return f, true
		}
	}
	return fixture{}, false
}
