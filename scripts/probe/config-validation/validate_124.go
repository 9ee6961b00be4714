//go:build k8s_124

package main

import (
	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
	"k8s.io/kubernetes/pkg/kubelet/apis/config/validation"
)

// 1.24 initialises logging after validation, outside RunE's error (klog.ErrorS + os.Exit(1)):
// not a step of this probe.
func validateLogging(*kubeletconfiginternal.KubeletConfiguration) error { return nil }

// 1.24: ValidateKubeletConfiguration(kc) reads utilfeature.DefaultFeatureGate itself.
func validateConfig(kc *kubeletconfiginternal.KubeletConfiguration) error {
	return validation.ValidateKubeletConfiguration(kc)
}
