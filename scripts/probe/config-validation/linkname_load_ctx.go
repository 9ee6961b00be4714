//go:build k8s_loadctx

package main

import (
	"context"
	_ "unsafe"

	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
)

// cmd/kubelet/app/server.go loadConfigFile(ctx context.Context, name string), 1.34+.
//
//go:linkname loadConfigFile k8s.io/kubernetes/cmd/kubelet/app.loadConfigFile
func loadConfigFile(ctx context.Context, name string) (*kubeletconfiginternal.KubeletConfiguration, error)

func loadConfig(name string) (*kubeletconfiginternal.KubeletConfiguration, error) {
	return loadConfigFile(context.Background(), name)
}
