//go:build !k8s_merge_err && !k8s_merge_skipped

package main

import (
	"k8s.io/kubernetes/cmd/kubelet/app/options"
	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
)

// Before 1.28 kubelet has no --config-dir.
func dropinDirectory(*options.KubeletFlags) string { return "" }

func mergeDropins(*kubeletconfiginternal.KubeletConfiguration, string) error { return nil }
