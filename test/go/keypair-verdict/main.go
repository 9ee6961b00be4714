// Command keypair-verdict prints, for each "certfile<TAB>keyfile" line on stdin, what
// crypto/tls.X509KeyPair decides on the two files' contents with this Go (GODEBUG, e.g.
// x509rsacrt=0, honoured from the environment). One JSON line per input line:
// {"ok":bool,"error":"…"}. Standard library only.
package main

import (
	"bufio"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

type verdict struct {
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

func main() {
	scanner := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	encoder := json.NewEncoder(out)
	for scanner.Scan() {
		files := strings.Split(scanner.Text(), "\t")
		if len(files) != 2 {
			fmt.Fprintln(os.Stderr, "want certfile<TAB>keyfile")
			os.Exit(2)
		}
		cert, err := os.ReadFile(files[0])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		key, err := os.ReadFile(files[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		v := verdict{OK: true}
		if _, err := tls.X509KeyPair(cert, key); err != nil {
			v.OK, v.Error = false, err.Error()
		}
		encoder.Encode(v)
	}
}
