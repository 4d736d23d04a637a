package mcp

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// addTool adds a tool whose input and output schemas are inferred from In
// and Out as the SDK would, then made plain for strict schema dialects:
// no ["null", T] type unions (the SDK gives one to every slice, map and
// pointer; a field that may be absent is simply not required, and the
// handlers never send null), and the enum of every field tagged
// `enum:"a,b"`.
func addTool[In, Out any](s *sdk.Server, t *sdk.Tool, h func(context.Context, *sdk.CallToolRequest, In) (*sdk.CallToolResult, Out, error)) {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("%s: input schema: %v", t.Name, err))
	}
	out, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(fmt.Sprintf("%s: output schema: %v", t.Name, err))
	}
	noNull(in)
	noNull(out)
	addEnums(in, reflect.TypeFor[In]())
	t.InputSchema, t.OutputSchema = in, out
	sdk.AddTool(s, t, h)
}

// noNull removes "null" from every type union in s, recursively.
func noNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) > 0 {
		s.Types = slices.DeleteFunc(s.Types, func(t string) bool { return t == "null" })
		if len(s.Types) == 1 {
			s.Type, s.Types = s.Types[0], nil
		}
	}
	for _, p := range s.Properties {
		noNull(p)
	}
	for _, d := range s.Defs {
		noNull(d)
	}
	for _, list := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf, s.AllOf, s.PrefixItems} {
		for _, x := range list {
			noNull(x)
		}
	}
	noNull(s.Items)
	noNull(s.AdditionalProperties)
}

// addEnums sets the enum of each property of s whose field of struct type
// t has an enum tag (its values comma-separated; a leading comma allows
// the empty string).
func addEnums(s *jsonschema.Schema, t reflect.Type) {
	if t.Kind() != reflect.Struct {
		return
	}
	for f := range t.Fields() {
		vals, ok := f.Tag.Lookup("enum")
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		p := s.Properties[name]
		if p == nil {
			panic(fmt.Sprintf("enum on %s: no property %q", t, name))
		}
		p.Enum = nil
		for _, v := range strings.Split(vals, ",") {
			p.Enum = append(p.Enum, v)
		}
	}
}
