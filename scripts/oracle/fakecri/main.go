// fakecri answers the CRI calls kubelet makes before it logs "Started kubelet", so the oracle's
// real kubelet gets past PreInitRuntimeService (Version must report runtime API "v1":
// k8s.io/cri-client pkg/remote_runtime.go validateServiceConnection) and the cgroup-driver query
// (RuntimeConfig; Unimplemented makes kubelet keep its configured driver). Anything else is
// Unimplemented or empty. One build serves every kubelet minor: CRI v1 only grows.
//
//	fakecri --endpoint unix:///run/containerd/containerd.sock [--endpoint …] [--cgroup-driver systemd|cgroupfs]
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	runtime "k8s.io/cri-api/pkg/apis/runtime/v1"
)

type endpoints []string

func (e *endpoints) String() string     { return strings.Join(*e, ",") }
func (e *endpoints) Set(v string) error { *e = append(*e, v); return nil }

type runtimeService struct {
	runtime.UnimplementedRuntimeServiceServer
	cgroupDriver string
}

func (runtimeService) Version(context.Context, *runtime.VersionRequest) (*runtime.VersionResponse, error) {
	return &runtime.VersionResponse{Version: "0.1.0", RuntimeName: "node-check-fakecri", RuntimeVersion: "0.1.0", RuntimeApiVersion: "v1"}, nil
}

func (runtimeService) Status(context.Context, *runtime.StatusRequest) (*runtime.StatusResponse, error) {
	return &runtime.StatusResponse{Status: &runtime.RuntimeStatus{Conditions: []*runtime.RuntimeCondition{
		{Type: runtime.RuntimeReady, Status: true}, {Type: runtime.NetworkReady, Status: true},
	}}}, nil
}

func (s runtimeService) RuntimeConfig(context.Context, *runtime.RuntimeConfigRequest) (*runtime.RuntimeConfigResponse, error) {
	switch s.cgroupDriver {
	case "systemd":
		return &runtime.RuntimeConfigResponse{Linux: &runtime.LinuxRuntimeConfiguration{CgroupDriver: runtime.CgroupDriver_SYSTEMD}}, nil
	case "cgroupfs":
		return &runtime.RuntimeConfigResponse{Linux: &runtime.LinuxRuntimeConfiguration{CgroupDriver: runtime.CgroupDriver_CGROUPFS}}, nil
	}
	return nil, status.Error(codes.Unimplemented, "RuntimeConfig not implemented")
}

func (runtimeService) ListPodSandbox(context.Context, *runtime.ListPodSandboxRequest) (*runtime.ListPodSandboxResponse, error) {
	return &runtime.ListPodSandboxResponse{}, nil
}

func (runtimeService) ListContainers(context.Context, *runtime.ListContainersRequest) (*runtime.ListContainersResponse, error) {
	return &runtime.ListContainersResponse{}, nil
}

type imageService struct {
	runtime.UnimplementedImageServiceServer
}

func (imageService) ListImages(context.Context, *runtime.ListImagesRequest) (*runtime.ListImagesResponse, error) {
	return &runtime.ListImagesResponse{}, nil
}

func (imageService) ImageFsInfo(context.Context, *runtime.ImageFsInfoRequest) (*runtime.ImageFsInfoResponse, error) {
	return &runtime.ImageFsInfoResponse{}, nil
}

func main() {
	var list endpoints
	flag.Var(&list, "endpoint", "unix:// endpoint to listen on (repeatable)")
	cgroupDriver := flag.String("cgroup-driver", "", "RuntimeConfig answer: systemd, cgroupfs, or empty for Unimplemented")
	flag.Parse()
	server := grpc.NewServer()
	runtime.RegisterRuntimeServiceServer(server, runtimeService{cgroupDriver: *cgroupDriver})
	runtime.RegisterImageServiceServer(server, imageService{})
	for _, endpoint := range list {
		path := strings.TrimPrefix(endpoint, "unix://")
		if path == endpoint || path == "" {
			fmt.Fprintf(os.Stderr, "fakecri: %q is not a unix:// endpoint\n", endpoint)
			os.Exit(2)
		}
		_ = os.MkdirAll(filepath.Dir(path), 0o755)
		_ = os.Remove(path)
		listener, err := net.Listen("unix", path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "fakecri: %v\n", err)
			os.Exit(1)
		}
		go func() { _ = server.Serve(listener) }()
	}
	fmt.Println("fakecri: listening")
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	<-signals
	server.Stop()
}
