// Package mdoczk calls libmdoc_zk, the longfellow-rs build of Google's
// mdoc_zk.h C ABI, through cgo.
//
// Link it by pointing cgo at the library, e.g.
//
//	CGO_LDFLAGS="-L$LIBDIR -Wl,-rpath,$LIBDIR" go test ./...
//
// (or link the static libmdoc_zk.a with -lpthread -ldl -lm).
package mdoczk

/*
#cgo CFLAGS: -I${SRCDIR}/../../include
#cgo LDFLAGS: -lmdoc_zk
#include <stdlib.h>
#include "longfellow/mdoc_zk.h"
*/
import "C"

import (
	"encoding/hex"
	"fmt"
	"unsafe"
)

// Attribute is one claim: namespace, elementIdentifier and the CBOR
// encoding of the elementValue.
type Attribute struct {
	Namespace string
	ID        string
	ValueCBOR []byte
}

// Spec is a row of the library's kZkSpecs table.
type Spec struct {
	ptr           *C.ZkSpecStruct
	System        string
	CircuitHash   string
	NumAttributes int
	Version       int
}

// Error is a failed call: the ABI code and the library's full message.
type Error struct {
	Func    string
	Code    int
	Message string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s failed with code %d: %s", e.Func, e.Code, e.Message)
}

// ABI codes the tests and callers compare against.
const (
	ProverNullInput             = int(C.MDOC_PROVER_NULL_INPUT)
	ProverCircuitParsingFailure = int(C.MDOC_PROVER_CIRCUIT_PARSING_FAILURE)
	ProverAttributeNotFound     = int(C.MDOC_PROVER_ATTRIBUTE_NOT_FOUND)
	ProverAttributeTooLong      = int(C.MDOC_PROVER_ATTRIBUTE_TOO_LONG)
	VerifierGeneralFailure      = int(C.MDOC_VERIFIER_GENERAL_FAILURE)
	VerifierProofTooSmall       = int(C.MDOC_VERIFIER_PROOF_TOO_SMALL)
	VerifierNullInput           = int(C.MDOC_VERIFIER_NULL_INPUT)
)

func lastError() string { return C.GoString(C.longfellow_last_error()) }

func fromC(p *C.ZkSpecStruct) *Spec {
	return &Spec{
		ptr:           p,
		System:        C.GoString(p.system),
		CircuitHash:   C.GoString(&p.circuit_hash[0]),
		NumAttributes: int(p.num_attributes),
		Version:       int(p.version),
	}
}

// Specs lists kZkSpecs in table order.
func Specs() []*Spec {
	table := unsafe.Slice(&C.kZkSpecs[0], int(C.kNumZkSpecs))
	out := make([]*Spec, len(table))
	for i := range table {
		out[i] = fromC(&table[i])
	}
	return out
}

// FindSpec is find_zk_spec for system longfellow-libzk-v1.
func FindSpec(circuitHash string) *Spec {
	sys := C.CString("longfellow-libzk-v1")
	defer C.free(unsafe.Pointer(sys))
	h := C.CString(circuitHash)
	defer C.free(unsafe.Pointer(h))
	p := C.find_zk_spec(sys, h)
	if p == nil {
		return nil
	}
	return fromC(p)
}

// bytesC copies b to C memory (nil for empty, which the library refuses).
func bytesC(b []byte) (*C.uint8_t, func()) {
	if len(b) == 0 {
		return nil, func() {}
	}
	p := C.CBytes(b)
	return (*C.uint8_t)(p), func() { C.free(p) }
}

func attrsC(attrs []Attribute) (*C.RequestedAttribute, func()) {
	n := len(attrs)
	if n == 0 {
		n = 1
	}
	p := (*C.RequestedAttribute)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(C.RequestedAttribute{}))))
	arr := unsafe.Slice(p, n)
	for i, a := range attrs {
		c := &arr[i]
		// Lengths are passed as given; the library refuses what does not fit.
		for j := 0; j < len(a.Namespace) && j < len(c.namespace_id); j++ {
			c.namespace_id[j] = C.uint8_t(a.Namespace[j])
		}
		for j := 0; j < len(a.ID) && j < len(c.id); j++ {
			c.id[j] = C.uint8_t(a.ID[j])
		}
		for j := 0; j < len(a.ValueCBOR) && j < len(c.cbor_value); j++ {
			c.cbor_value[j] = C.uint8_t(a.ValueCBOR[j])
		}
		c.namespace_len = C.size_t(len(a.Namespace))
		c.id_len = C.size_t(len(a.ID))
		c.cbor_value_len = C.size_t(len(a.ValueCBOR))
	}
	return p, func() { C.free(unsafe.Pointer(p)) }
}

// Statement is what both sides agree on.
type Statement struct {
	Circuit    []byte
	PKX, PKY   string
	Transcript []byte
	Attributes []Attribute
	Now        string
	Spec       *Spec
}

type cStatement struct {
	bcp, tr       *C.uint8_t
	pkx, pky, now *C.char
	attrs         *C.RequestedAttribute
	free          []func()
}

func (s *Statement) toC() *cStatement {
	c := &cStatement{}
	var f func()
	c.bcp, f = bytesC(s.Circuit)
	c.free = append(c.free, f)
	c.tr, f = bytesC(s.Transcript)
	c.free = append(c.free, f)
	c.attrs, f = attrsC(s.Attributes)
	c.free = append(c.free, f)
	for _, p := range []struct {
		dst **C.char
		s   string
	}{{&c.pkx, s.PKX}, {&c.pky, s.PKY}, {&c.now, s.Now}} {
		cs := C.CString(p.s)
		*p.dst = cs
		c.free = append(c.free, func() { C.free(unsafe.Pointer(cs)) })
	}
	return c
}

func (c *cStatement) release() {
	for _, f := range c.free {
		f()
	}
}

func specPtr(s *Spec) *C.ZkSpecStruct {
	if s == nil {
		return nil
	}
	return s.ptr
}

// Prove runs run_mdoc_prover (Google's signature) on the DeviceResponse.
func Prove(s *Statement, mdoc []byte) ([]byte, error) {
	c := s.toC()
	defer c.release()
	m, freeM := bytesC(mdoc)
	defer freeM()
	var prf *C.uint8_t
	var n C.size_t
	code := C.run_mdoc_prover(c.bcp, C.size_t(len(s.Circuit)), m, C.size_t(len(mdoc)),
		c.pkx, c.pky, c.tr, C.size_t(len(s.Transcript)), c.attrs, C.size_t(len(s.Attributes)),
		c.now, &prf, &n, specPtr(s.Spec))
	if code != C.MDOC_PROVER_SUCCESS {
		return nil, &Error{"run_mdoc_prover", int(code), lastError()}
	}
	defer C.free(unsafe.Pointer(prf))
	return C.GoBytes(unsafe.Pointer(prf), C.int(n)), nil
}

// Verify runs run_mdoc_verifier.
func Verify(s *Statement, proof []byte, docType string) error {
	c := s.toC()
	defer c.release()
	p, freeP := bytesC(proof)
	defer freeP()
	dt := C.CString(docType)
	defer C.free(unsafe.Pointer(dt))
	code := C.run_mdoc_verifier(c.bcp, C.size_t(len(s.Circuit)), c.pkx, c.pky, c.tr,
		C.size_t(len(s.Transcript)), c.attrs, C.size_t(len(s.Attributes)), c.now, p,
		C.size_t(len(proof)), dt, specPtr(s.Spec))
	if code != C.MDOC_VERIFIER_SUCCESS {
		return &Error{"run_mdoc_verifier", int(code), lastError()}
	}
	return nil
}

// CircuitID returns the hex circuit ID of a circuit file (no spec needed).
func CircuitID(circuit []byte) (string, error) {
	b, free := bytesC(circuit)
	defer free()
	var id [32]C.uint8_t
	if C.circuit_id(&id[0], b, C.size_t(len(circuit)), nil) != 1 {
		return "", &Error{"circuit_id", 0, lastError()}
	}
	out := make([]byte, 32)
	for i := range id {
		out[i] = byte(id[i])
	}
	return hex.EncodeToString(out), nil
}
