package main

import (
	"fmt"
	"os"
)

// dropinEnvFormat: 1.28-1.29 RunE refuses --config-dir unless KUBELET_CONFIG_DROPIN_DIR_ALPHA is
// set (an inline os.LookupEnv in server.go, no function to call); the driver passes the format it
// read there, empty where server.go has no such check.
var dropinEnvFormat string

func dropinEnvCheck(dir string) error {
	if dropinEnvFormat == "" {
		return nil
	}
	if _, ok := os.LookupEnv("KUBELET_CONFIG_DROPIN_DIR_ALPHA"); !ok {
		return fmt.Errorf(dropinEnvFormat, dir)
	}
	return nil
}
