// Command x509-verdict prints, for each PEM file named on the command line (or one path per
// line on stdin with -), what kubelet's client CA bundle load decides: client-go
// util/cert/pem.go ParseCertsPEM (copied here in its behaviour: "CERTIFICATE" blocks without
// headers, x509.ParseCertificate each, at least one) with this Go's encoding/pem and
// crypto/x509. One JSON line per file: {"file":…,"ok":bool,"error":"…"}. Standard library only;
// GODEBUG (x509negativeserial=1) is honoured from the environment.
package main

import (
	"bufio"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
)

func parseCertsPEM(data []byte) error {
	ok := false
	for len(data) > 0 {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" || len(block.Headers) != 0 {
			continue
		}
		if _, err := x509.ParseCertificate(block.Bytes); err != nil {
			return err
		}
		ok = true
	}
	if !ok {
		return errors.New("data does not contain any valid RSA or ECDSA certificates")
	}
	return nil
}

type verdict struct {
	File  string `json:"file"`
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

func main() {
	files := os.Args[1:]
	if len(files) == 1 && files[0] == "-" {
		files = nil
		scanner := bufio.NewScanner(os.Stdin)
		for scanner.Scan() {
			files = append(files, scanner.Text())
		}
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	encoder := json.NewEncoder(out)
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		v := verdict{File: file, OK: true}
		if err := parseCertsPEM(data); err != nil {
			v.OK, v.Error = false, err.Error()
		}
		encoder.Encode(v)
	}
}
