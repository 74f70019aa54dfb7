// tlogcheck checks Reel's transparency-log output with code Reel did not write: the Go checksum
// database's tlog and note packages (golang.org/x/mod/sumdb, Debian's golang-golang-x-mod-dev).
//
//	tlogcheck proof -key KEY FILE...         each FILE a C2SP tlog-proof as `reel audit prove` writes it
//	tlogcheck consistency -key KEY FILE...   each FILE a proof as `reel audit consistency --out` writes it
//	tlogcheck tiles -key KEY URL [FILE...]   a log served at URL (`reel serve`): /checkpoint and /tile/...
//	tlogcheck cosigned -key KEY -witness WKEY FILE...   each FILE a checkpoint (or a tlog-proof) a witness cosigned
//
// For each inclusion proof: the checkpoint's signature under KEY (note.Open), the checkpoint's
// lines, and the inclusion of the `extra` line's bytes (the envelope as stored) at `index`
// (tlog.CheckRecord). For each consistency proof: both checkpoints' signatures, and that the
// older tree is the start of the newer one (tlog.CheckTree). For a served log: the checkpoint's
// signature, the tree hash computed from the served tiles (tlog.TileHashReader, tlog.TreeHash),
// every record's inclusion proved from the tiles (tlog.ProveRecord, tlog.CheckRecord), and each
// FILE's envelope (a tlog-proof's extra line) the leaf the tiles hold at its index. For a
// cosigned checkpoint: the log's signature (note.Open, which leaves the witness's line unverified),
// then the witness's cosignature as C2SP tlog-cosignature v1 defines it, checked here with Go's
// crypto/ed25519 and crypto/sha256: key ID SHA-256(name || "\n" || 0x04 || key)[:4], signature
// over "cosignature/v1\ntime <t>\n" and the checkpoint's body.
// Prints one line per file; exits 1 if any proof does not hold, 2 for bad usage.
//
// Built by the tests in GOPATH mode, offline:
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go build -o tlogcheck Tools/tlogcheck/main.go
package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// checkpoint is a C2SP tlog-checkpoint's body.
type checkpoint struct {
	origin string
	size   int64
	hash   tlog.Hash
}

func parseCheckpoint(text string) (checkpoint, error) {
	lines := strings.Split(text, "\n")
	if len(lines) < 4 || lines[len(lines)-1] != "" {
		return checkpoint{}, errors.New("a checkpoint has an origin, a size and a hash, each ending in a newline")
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 0 || strconv.FormatInt(size, 10) != lines[1] {
		return checkpoint{}, fmt.Errorf("bad tree size %q", lines[1])
	}
	raw, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(raw) != tlog.HashSize {
		return checkpoint{}, fmt.Errorf("bad tree hash %q", lines[2])
	}
	var hash tlog.Hash
	copy(hash[:], raw)
	return checkpoint{origin: lines[0], size: size, hash: hash}, nil
}

// checkProof checks one tlog-proof file's text under the verifier.
func checkProof(text []byte, verifier note.Verifier) (string, error) {
	blank := bytes.Index(text, []byte("\n\n"))
	if blank < 0 {
		return "", errors.New("no blank line before the checkpoint")
	}
	lines := strings.Split(string(text[:blank]), "\n")
	if len(lines) < 3 || lines[0] != "c2sp.org/tlog-proof@v1" {
		return "", errors.New("not a c2sp.org/tlog-proof@v1")
	}
	if !strings.HasPrefix(lines[1], "extra ") {
		return "", errors.New("no extra line (the envelope)")
	}
	entry, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(lines[1], "extra "))
	if err != nil {
		return "", fmt.Errorf("extra: %v", err)
	}
	if !strings.HasPrefix(lines[2], "index ") {
		return "", errors.New("no index line")
	}
	index, err := strconv.ParseInt(strings.TrimPrefix(lines[2], "index "), 10, 64)
	if err != nil || index < 0 {
		return "", fmt.Errorf("bad index %q", lines[2])
	}
	var proof tlog.RecordProof
	for _, line := range lines[3:] {
		raw, err := base64.StdEncoding.DecodeString(line)
		if err != nil || len(raw) != tlog.HashSize {
			return "", fmt.Errorf("bad proof hash %q", line)
		}
		var hash tlog.Hash
		copy(hash[:], raw)
		proof = append(proof, hash)
	}
	signed, err := note.Open(text[blank+2:], note.VerifierList(verifier))
	if err != nil {
		return "", fmt.Errorf("checkpoint: %v", err)
	}
	cp, err := parseCheckpoint(signed.Text)
	if err != nil {
		return "", err
	}
	if cp.origin != verifier.Name() {
		return "", fmt.Errorf("checkpoint of %q, not of %q", cp.origin, verifier.Name())
	}
	if err := tlog.CheckRecord(proof, cp.size, cp.hash, index, tlog.RecordHash(entry)); err != nil {
		return "", fmt.Errorf("inclusion: %v", err)
	}
	return fmt.Sprintf("index %d in %s of %d", index, cp.origin, cp.size), nil
}

// openCheckpoint checks a signed checkpoint under the verifier and parses its body.
func openCheckpoint(text []byte, verifier note.Verifier) (checkpoint, error) {
	signed, err := note.Open(text, note.VerifierList(verifier))
	if err != nil {
		return checkpoint{}, fmt.Errorf("checkpoint: %v", err)
	}
	cp, err := parseCheckpoint(signed.Text)
	if err != nil {
		return checkpoint{}, err
	}
	if cp.origin != verifier.Name() {
		return checkpoint{}, fmt.Errorf("checkpoint of %q, not of %q", cp.origin, verifier.Name())
	}
	return cp, nil
}

// checkConsistency checks one reel-consistency-proof/1 file's text under the verifier.
func checkConsistency(text []byte, verifier note.Verifier) (string, error) {
	lines := strings.Split(string(text), "\n")
	if len(lines) == 0 || lines[0] != "reel-consistency-proof/1" {
		return "", errors.New("not a reel-consistency-proof/1")
	}
	i := 1
	var proof tlog.TreeProof
	for ; i < len(lines) && lines[i] != ""; i++ {
		raw, err := base64.StdEncoding.DecodeString(lines[i])
		if err != nil || len(raw) != tlog.HashSize {
			return "", fmt.Errorf("bad proof hash %q", lines[i])
		}
		var hash tlog.Hash
		copy(hash[:], raw)
		proof = append(proof, hash)
	}
	i++ // the blank line
	// A signed note: body lines, a blank line, signature lines starting with an em dash.
	readNote := func() []byte {
		start := i
		for i < len(lines) && lines[i] != "" {
			i++
		}
		i++
		for i < len(lines) && strings.HasPrefix(lines[i], "— ") {
			i++
		}
		if start >= len(lines) || i > len(lines) {
			return nil
		}
		return []byte(strings.Join(lines[start:i], "\n") + "\n")
	}
	older, err := openCheckpoint(readNote(), verifier)
	if err != nil {
		return "", fmt.Errorf("older %v", err)
	}
	i++ // the blank line between the two notes
	newer, err := openCheckpoint(readNote(), verifier)
	if err != nil {
		return "", fmt.Errorf("newer %v", err)
	}
	if err := tlog.CheckTree(proof, newer.size, newer.hash, older.size, older.hash); err != nil {
		return "", fmt.Errorf("consistency: %v", err)
	}
	return fmt.Sprintf("%s grew from %d to %d", newer.origin, older.size, newer.size), nil
}

// servedTiles reads tiles from a log served at base, at C2SP paths (Go's own add the height).
type servedTiles struct{ base string }

func (r servedTiles) Height() int { return 8 }

func (r servedTiles) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, tile := range tiles {
		path := strings.TrimPrefix(tile.Path(), "tile/8/")
		response, err := http.Get(r.base + "/tile/" + path)
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(response.Body)
		response.Body.Close()
		if err != nil {
			return nil, err
		}
		if response.StatusCode != 200 {
			return nil, fmt.Errorf("tile/%s: %s", path, response.Status)
		}
		out[i] = data
	}
	return out, nil
}

func (r servedTiles) SaveTiles(tiles []tlog.Tile, data [][]byte) {}

// checkServed checks a served log; proofs name envelopes the tiles must hold.
func checkServed(base string, verifier note.Verifier, proofs []string) error {
	response, err := http.Get(base + "/checkpoint")
	if err != nil {
		return err
	}
	text, err := io.ReadAll(response.Body)
	response.Body.Close()
	if err != nil || response.StatusCode != 200 {
		return fmt.Errorf("checkpoint: %v %s", err, response.Status)
	}
	cp, err := openCheckpoint(text, verifier)
	if err != nil {
		return err
	}
	reader := tlog.TileHashReader(tlog.Tree{N: cp.size, Hash: cp.hash}, servedTiles{base})
	root, err := tlog.TreeHash(cp.size, reader)
	if err != nil {
		return fmt.Errorf("tree hash from the tiles: %v", err)
	}
	if root != cp.hash {
		return errors.New("the tiles' tree hash is not the checkpoint's")
	}
	for n := int64(0); n < cp.size; n++ {
		leaf, err := reader.ReadHashes([]int64{tlog.StoredHashIndex(0, n)})
		if err != nil {
			return fmt.Errorf("leaf %d: %v", n, err)
		}
		proof, err := tlog.ProveRecord(cp.size, n, reader)
		if err != nil {
			return fmt.Errorf("proof of %d: %v", n, err)
		}
		if err := tlog.CheckRecord(proof, cp.size, cp.hash, n, leaf[0]); err != nil {
			return fmt.Errorf("inclusion of %d: %v", n, err)
		}
	}
	for _, file := range proofs {
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		lines := strings.Split(string(data), "\n")
		if len(lines) < 3 || !strings.HasPrefix(lines[1], "extra ") || !strings.HasPrefix(lines[2], "index ") {
			return fmt.Errorf("%s: not a tlog-proof with an envelope", file)
		}
		entry, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(lines[1], "extra "))
		if err != nil {
			return fmt.Errorf("%s: %v", file, err)
		}
		index, err := strconv.ParseInt(strings.TrimPrefix(lines[2], "index "), 10, 64)
		if err != nil || index >= cp.size {
			return fmt.Errorf("%s: index %q outside the served tree", file, lines[2])
		}
		leaf, err := reader.ReadHashes([]int64{tlog.StoredHashIndex(0, index)})
		if err != nil {
			return err
		}
		if leaf[0] != tlog.RecordHash(entry) {
			return fmt.Errorf("%s: the tiles hold another leaf at index %d", file, index)
		}
	}
	fmt.Printf("ok %s: %s of %d, every record proved from the tiles\n", base, cp.origin, cp.size)
	return nil
}

// witnessKey is a cosigner's verifier key: name+hash+base64(0x04 || Ed25519 key).
type witnessKey struct {
	name string
	id   []byte
	key  ed25519.PublicKey
}

func parseWitnessKey(text string) (witnessKey, error) {
	parts := strings.SplitN(text, "+", 3)
	if len(parts) != 3 {
		return witnessKey{}, errors.New("a witness key is name+hash+base64")
	}
	raw, err := base64.StdEncoding.DecodeString(parts[2])
	if err != nil || len(raw) != 33 || raw[0] != 0x04 {
		return witnessKey{}, errors.New("not an Ed25519 cosignature key (type 0x04)")
	}
	sum := sha256.Sum256(append([]byte(parts[0]+"\n"), raw...))
	if fmt.Sprintf("%x", sum[:4]) != parts[1] {
		return witnessKey{}, errors.New("the key hash does not match")
	}
	return witnessKey{name: parts[0], id: sum[:4], key: ed25519.PublicKey(raw[1:])}, nil
}

// checkCosigned checks a cosigned checkpoint (or a tlog-proof's): the log's signature, and the
// witness's cosignature on the same body. Returns what it holds.
func checkCosigned(text []byte, verifier note.Verifier, witness witnessKey) (string, error) {
	if bytes.HasPrefix(text, []byte("c2sp.org/tlog-proof@v1\n")) {
		blank := bytes.Index(text, []byte("\n\n"))
		text = text[blank+2:]
	}
	signed, err := note.Open(text, note.VerifierList(verifier))
	if err != nil {
		return "", fmt.Errorf("checkpoint: %v", err)
	}
	cp, err := parseCheckpoint(signed.Text)
	if err != nil {
		return "", err
	}
	for _, sig := range signed.UnverifiedSigs {
		raw, err := base64.StdEncoding.DecodeString(sig.Base64)
		if sig.Name != witness.name || err != nil || len(raw) != 4+8+64 || !bytes.Equal(raw[:4], witness.id) {
			continue
		}
		stamp := binary.BigEndian.Uint64(raw[4:12])
		message := fmt.Sprintf("cosignature/v1\ntime %d\n%s", stamp, signed.Text)
		if ed25519.Verify(witness.key, []byte(message), raw[12:]) {
			return fmt.Sprintf("%s of %d cosigned by %s at %d", cp.origin, cp.size, witness.name, stamp), nil
		}
		return "", errors.New("the witness's cosignature does not verify")
	}
	return "", fmt.Errorf("no cosignature by %s", witness.name)
}

func main() {
	if len(os.Args) >= 2 && os.Args[1] == "cosigned" {
		flags := flag.NewFlagSet("cosigned", flag.ExitOnError)
		key := flags.String("key", "", "the log's verifier key")
		wkey := flags.String("witness", "", "the witness's cosignature key")
		flags.Parse(os.Args[2:])
		verifier, err := note.NewVerifier(*key)
		witness, werr := parseWitnessKey(*wkey)
		if err != nil || werr != nil || flags.NArg() == 0 {
			fmt.Fprintln(os.Stderr, "usage: tlogcheck cosigned -key KEY -witness WITNESS-KEY FILE...")
			os.Exit(2)
		}
		checkFiles(flags.Args(), func(text []byte) (string, error) { return checkCosigned(text, verifier, witness) })
		return
	}
	if len(os.Args) >= 2 && os.Args[1] == "tiles" {
		flags := flag.NewFlagSet("tiles", flag.ExitOnError)
		key := flags.String("key", "", "the log's verifier key")
		flags.Parse(os.Args[2:])
		verifier, err := note.NewVerifier(*key)
		if err != nil || flags.NArg() < 1 {
			fmt.Fprintln(os.Stderr, "usage: tlogcheck tiles -key KEY URL [PROOF-FILE...]")
			os.Exit(2)
		}
		if err := checkServed(strings.TrimSuffix(flags.Arg(0), "/"), verifier, flags.Args()[1:]); err != nil {
			fmt.Printf("FAIL %s: %v\n", flags.Arg(0), err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) < 2 || (os.Args[1] != "proof" && os.Args[1] != "consistency") {
		fmt.Fprintln(os.Stderr, "usage: tlogcheck proof|consistency -key KEY FILE...")
		os.Exit(2)
	}
	check := checkProof
	if os.Args[1] == "consistency" {
		check = checkConsistency
	}
	flags := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	key := flags.String("key", "", "the log's verifier key (name+hash+base64)")
	flags.Parse(os.Args[2:])
	verifier, err := note.NewVerifier(*key)
	if err != nil || flags.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: tlogcheck proof -key KEY FILE... (a key as `reel audit key` prints it)")
		os.Exit(2)
	}
	checkFiles(flags.Args(), func(text []byte) (string, error) { return check(text, verifier) })
}

// checkFiles checks each file with check, a line each (`ok FILE: …` or `FAIL FILE: …`), and
// exits 1 if any failed.
func checkFiles(files []string, check func([]byte) (string, error)) {
	failed := false
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err == nil {
			var what string
			if what, err = check(text); err == nil {
				fmt.Printf("ok %s: %s\n", file, what)
				continue
			}
		}
		failed = true
		fmt.Printf("FAIL %s: %v\n", file, err)
	}
	if failed {
		os.Exit(1)
	}
}
