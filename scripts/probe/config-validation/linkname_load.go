//go:build !k8s_loadctx

package main

import (
	_ "unsafe"

	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
)

// cmd/kubelet/app/server.go loadConfigFile(name string), 1.24-1.33.
//
//go:linkname loadConfigFile k8s.io/kubernetes/cmd/kubelet/app.loadConfigFile
func loadConfigFile(name string) (*kubeletconfiginternal.KubeletConfiguration, error)

func loadConfig(name string) (*kubeletconfiginternal.KubeletConfiguration, error) {
	return loadConfigFile(name)
}
