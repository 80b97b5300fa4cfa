package mdoczk

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	now  = "2024-10-01T09:00:00Z"
	ns   = "org.iso.18013.5.1"
	v7_1 = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121"
)

var attrs = []Attribute{
	{ns, "family_name", []byte("\x6aMustermann")},
	{ns, "birth_date", []byte("\xd9\x03\xec\x6a1971-09-01")},
	{ns, "issue_date", []byte("\xd9\x03\xec\x6a2024-03-15")},
	{ns, "height", []byte("\x18\xaf")},
}

type testCase struct {
	Name, Pkx, Pky, DocType, TranscriptHex, MdocHex string
}

func vectors(t *testing.T) string {
	if v := os.Getenv("LONGFELLOW_VECTORS"); v != "" {
		return filepath.Join(v, "google", "mdoc")
	}
	// bindings/go -> repository root -> ../shared/vectors
	return filepath.Join("..", "..", "..", "..", "..", "shared", "vectors", "google", "mdoc")
}

func read(t *testing.T, parts ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(parts...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func loadCase(t *testing.T) (testCase, []byte, []byte) {
	var cases []struct {
		Name          string `json:"name"`
		Pkx           string `json:"pkx"`
		Pky           string `json:"pky"`
		DocType       string `json:"doc_type"`
		TranscriptHex string `json:"transcript_hex"`
		MdocHex       string `json:"mdoc_hex"`
	}
	if err := json.Unmarshal(read(t, vectors(t), "cases.json"), &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.Name == "birthdate_1971_09_01-mdoc[3].json" {
			tr, _ := hex.DecodeString(c.TranscriptHex)
			m, _ := hex.DecodeString(c.MdocHex)
			return testCase(c), tr, m
		}
	}
	t.Fatal("case not found")
	return testCase{}, nil, nil
}

func statement(t *testing.T, h string, n int) (*Statement, testCase, []byte) {
	c, tr, m := loadCase(t)
	spec := FindSpec(h)
	if spec == nil {
		t.Fatalf("no spec %s", h)
	}
	return &Statement{read(t, vectors(t), "circuits", h), c.Pkx, c.Pky, tr, attrs[:n], now, spec}, c, m
}

func TestSpecTable(t *testing.T) {
	specs := Specs()
	if len(specs) != 12 || specs[0].Version != 7 || specs[11].Version != 5 || specs[11].NumAttributes != 4 {
		t.Fatalf("unexpected table %+v", specs)
	}
}

func TestStoredProofsVerify(t *testing.T) {
	proofs, _ := filepath.Glob(filepath.Join(vectors(t), "proofs", "*.bin"))
	count := 0
	for _, p := range proofs {
		h := strings.TrimSuffix(filepath.Base(p), ".bin")
		if strings.Contains(h, "_") {
			continue
		}
		count++
		spec := FindSpec(h)
		s, c, _ := statement(t, h, spec.NumAttributes)
		if err := Verify(s, read(t, p), c.DocType); err != nil {
			t.Errorf("%s: %v", h, err)
		}
	}
	if count != 8 {
		t.Fatalf("found %d stored proofs", count)
	}
}

func TestCircuitIDs(t *testing.T) {
	files, _ := os.ReadDir(filepath.Join(vectors(t), "circuits"))
	if len(files) != 24 {
		t.Fatalf("found %d circuit files", len(files))
	}
	for _, f := range files {
		id, err := CircuitID(read(t, vectors(t), "circuits", f.Name()))
		if err != nil || id != f.Name()[:64] {
			t.Errorf("%s: %s %v", f.Name(), id, err)
		}
	}
}

func code(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return -1
}

func TestFreshProofAndErrors(t *testing.T) {
	s, c, mdoc := statement(t, v7_1, 1)
	t0 := time.Now()
	proof, err := Prove(s, mdoc)
	if err != nil {
		t.Fatal(err)
	}
	t1 := time.Now()
	if err := Verify(s, proof, c.DocType); err != nil {
		t.Fatal(err)
	}
	// The line benches/bindings/run.sh collects (shown with -v).
	t.Logf("timing capi-go: prove %d ms, verify %d ms (v7, 1 attribute)",
		t1.Sub(t0).Milliseconds(), time.Since(t1).Milliseconds())
	bad := append([]byte(nil), proof...)
	bad[20] ^= 1
	if got := code(Verify(s, bad, c.DocType)); got != VerifierGeneralFailure {
		t.Errorf("mutated proof: code %d", got)
	}
	if got := code(Verify(s, proof[:40], c.DocType)); got != VerifierProofTooSmall {
		t.Errorf("short proof: code %d", got)
	}
	if got := code(Verify(s, nil, c.DocType)); got != VerifierNullInput {
		t.Errorf("null proof: code %d", got)
	}
	if _, err := Prove(s, nil); code(err) != ProverNullInput {
		t.Errorf("null mdoc: %v", err)
	}
	lacking := *s
	lacking.Attributes = []Attribute{{ns, "age_over_99", []byte{0xf5}}}
	if _, err := Prove(&lacking, mdoc); code(err) != ProverAttributeNotFound || !strings.Contains(err.Error(), "age_over_99") {
		t.Errorf("lacking attribute: %v", err)
	}
	long := *s
	long.Attributes = []Attribute{{ns, "family_name", append([]byte{0x78, 70}, make([]byte, 70)...)}}
	if _, err := Prove(&long, mdoc); code(err) != ProverAttributeTooLong {
		t.Errorf("over-long value: %v", err)
	}
	truncated := *s
	truncated.Circuit = s.Circuit[:len(s.Circuit)/2]
	if _, err := Prove(&truncated, mdoc); code(err) != ProverCircuitParsingFailure {
		t.Errorf("truncated circuit: %v", err)
	}
}

func TestConcurrentCalls(t *testing.T) {
	s, c, _ := statement(t, v7_1, 1)
	proof := read(t, vectors(t), "proofs", v7_1+".bin")
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			p := proof
			if i%2 == 1 {
				p = proof[:40]
			}
			errs[i] = Verify(s, p, c.DocType)
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		if (err == nil) != (i%2 == 0) {
			t.Errorf("call %d: %v", i, err)
		}
	}
}
