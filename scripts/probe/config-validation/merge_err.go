//go:build k8s_merge_err

package main

import (
	_ "unsafe"

	"k8s.io/kubernetes/cmd/kubelet/app/options"
	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
)

// cmd/kubelet/app/server.go mergeKubeletConfigurations(...) error, 1.28-1.35.
//
//go:linkname mergeKubeletConfigurations k8s.io/kubernetes/cmd/kubelet/app.mergeKubeletConfigurations
func mergeKubeletConfigurations(kc *kubeletconfiginternal.KubeletConfiguration, dir string) error

func dropinDirectory(f *options.KubeletFlags) string { return f.KubeletDropinConfigDirectory }

func mergeDropins(kc *kubeletconfiginternal.KubeletConfiguration, dir string) error {
	if err := dropinEnvCheck(dir); err != nil {
		return err
	}
	return mergeKubeletConfigurations(kc, dir)
}
