package hookwire

import (
	"context"
	"testing"
)

func TestAToolParameterIsDescribedByItsJSONSchemaTagAsTheMCPGoSDKWritesIt(t *testing.T) {
	type args struct {
		City  string `json:"city" jsonschema:"City name, e.g.: Beijing"`
		Days  int    `json:"days,omitempty" jsonschema:"description=How many days ahead\\, at most 14,minimum=1"`
		Unit  string `json:"unit,omitempty" jsonschema:"enum=c,enum=f"`
		Both  string `json:"both,omitempty" desc:"desc wins" jsonschema:"not this"`
		Plain string `json:"plain,omitempty"`
	}
	h := New("t")
	AddTool(h, "forecast", "Forecast", func(context.Context, args) (ToolResult, error) { return Text(""), nil })
	got, err := h.tools[0].def.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, got, `{"type":"function","function":{"name":"forecast","description":"Forecast","parameters":{
		"type":"object",
		"properties":{
			"city":{"type":"string","description":"City name, e.g.: Beijing"},
			"days":{"type":"integer","description":"How many days ahead, at most 14"},
			"unit":{"type":"string"},
			"both":{"type":"string","description":"desc wins"},
			"plain":{"type":"string"}
		},
		"required":["city"]}}}`)
}
