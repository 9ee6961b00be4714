package main

import (
	_ "unsafe"

	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
)

// cmd/kubelet/app/server.go kubeletConfigFlagPrecedence, the same signature 1.24-1.37.
//
//go:linkname kubeletConfigFlagPrecedence k8s.io/kubernetes/cmd/kubelet/app.kubeletConfigFlagPrecedence
func kubeletConfigFlagPrecedence(kc *kubeletconfiginternal.KubeletConfiguration, args []string) error
