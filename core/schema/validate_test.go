package schema_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hookwire/hookwire/core/internal/vectors"
	"github.com/hookwire/hookwire/core/schema"
)

func validator(t *testing.T) *schema.Validator {
	t.Helper()
	v, err := schema.NewValidator()
	require.NoError(t, err)
	return v
}

// check runs the one validation a vector asks for.
func check(v *schema.Validator, vec vectors.Vector) error {
	switch {
	case vec.Message != nil:
		return v.Validate(vec.Message, vec.Method)
	case vec.Params != nil:
		return v.ValidateParams(vec.Method, vec.Params)
	case vec.Result != nil:
		return v.ValidateResult(vec.Method, vec.Result)
	default:
		return v.ValidateDef(vec.Def, vec.Value)
	}
}

func TestVectors(t *testing.T) {
	v := validator(t)
	all, err := vectors.Load()
	require.NoError(t, err)
	var valid, invalid int
	for _, vec := range all {
		t.Run(vec.Name, func(t *testing.T) {
			err := check(v, vec)
			if vec.Valid {
				valid++
				assert.NoError(t, err)
				return
			}
			invalid++
			var ve *schema.ValidationError
			require.ErrorAs(t, err, &ve, "an invalid vector must be rejected")
			require.NotNil(t, vec.Path, "invalid vector without a path")
			assert.Equal(t, *vec.Path, ve.Path, "fault reported at the wrong place: %v", ve)
		})
	}
	assert.GreaterOrEqual(t, valid+invalid, 60)
	assert.GreaterOrEqual(t, invalid, 25)
}

func TestResultErrorNamesTheSelectedVariantOnly(t *testing.T) {
	v := validator(t)
	err := v.ValidateResult("hook.before_tool", []byte(`{"action":"deny_tool"}`))
	assert.Equal(t, &schema.ValidationError{Path: "/reason", Rule: "required", Message: "required member reason is missing"}, err)

	err = v.Validate([]byte(`{"jsonrpc":"2.0","id":4,"result":{"action":"modify","call":{"arguments":{}}}}`), "hook.before_tool")
	assert.Equal(t, &schema.ValidationError{Path: "/result/call/tool", Rule: "required", Message: "required member tool is missing"}, err)
}

func TestActionNotAllowedByMethod(t *testing.T) {
	err := validator(t).ValidateResult("hook.after_tool", []byte(`{"action":"respond","result":{"for_llm":"x"}}`))
	assert.EqualError(t, err, `/action: action "respond" is not allowed in hook.after_tool (allowed: continue, modify, abort_turn, hard_abort) (rule action)`)
}

func TestUnknownMethodRejected(t *testing.T) {
	err := validator(t).Validate([]byte(`{"jsonrpc":"2.0","id":2,"method":"hook.before_everything","params":{}}`), "")
	assert.Equal(t, &schema.ValidationError{Path: "/method", Rule: "method", Message: `unknown method "hook.before_everything"`}, err)
}

func TestUnknownMembersAccepted(t *testing.T) {
	msg := `{"jsonrpc":"2.0","id":9,"method":"hook.before_tool","future":1,
		"params":{"tool":"t","arguments":{},"meta":{"AgentID":"a","Shard":3},"added_later":{"x":[1]}}}`
	assert.NoError(t, validator(t).Validate([]byte(msg), ""))
}

func TestResponseNeedsItsMethod(t *testing.T) {
	err := validator(t).Validate([]byte(`{"jsonrpc":"2.0","id":2,"result":{"action":"continue"}}`), "")
	assert.Equal(t, "method", err.(*schema.ValidationError).Rule)
	// An error response needs no method: it carries no result to check.
	assert.NoError(t, validator(t).Validate([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`), ""))
}

func TestNotificationAndRequestKindsEnforced(t *testing.T) {
	v := validator(t)
	err := v.Validate([]byte(`{"jsonrpc":"2.0","id":3,"method":"hook.runtime_event","params":{"kind":"k","source":{},"scope":{},"payload":{}}}`), "")
	assert.Equal(t, "/id", err.(*schema.ValidationError).Path)
	err = v.Validate([]byte(`{"jsonrpc":"2.0","method":"hook.before_tool","params":{"tool":"t","arguments":{}}}`), "")
	assert.Equal(t, "/id", err.(*schema.ValidationError).Path)
}

// The committed schema is what the Go types reflect to: a hand edit of the
// file, or a change to the types without `go tool mage gen`, fails here.
func TestCommittedSchemaIsCurrent(t *testing.T) {
	want, err := schema.JSON()
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join("..", "..", "schema", "hookwire.schema.json"))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "schema/hookwire.schema.json is out of date: run go tool mage gen")
	table, err := schema.MethodTable()
	require.NoError(t, err)
	got, err = os.ReadFile(filepath.Join("..", "..", "schema", "methods.json"))
	require.NoError(t, err)
	assert.Equal(t, string(table), string(got), "schema/methods.json is out of date: run go tool mage gen")
}

func TestBuildIsDeterministic(t *testing.T) {
	a, err := schema.Build(nil)
	require.NoError(t, err)
	for range 5 {
		b, err := schema.Build(nil)
		require.NoError(t, err)
		require.Equal(t, string(a), string(b))
	}
}

// Faults goes on where Validate stops: every rule broken, each once, the
// first being Validate's, by path, whatever order the schema library
// finds them in.
func TestFaultsGivesEveryRuleBrokenOnce(t *testing.T) {
	v := validator(t)
	msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"hook.before_tool","params":{"tool":3,"arguments":"x"}}`)
	var got []string
	for _, f := range v.Faults(msg, "") {
		got = append(got, f.Path+" "+f.Rule)
	}
	assert.Equal(t, []string{"/params/arguments type", "/params/tool type"}, got)
	assert.Equal(t, v.Faults(msg, "")[0], v.Validate(msg, ""))
	assert.Empty(t, v.Faults([]byte(`{"jsonrpc":"2.0","id":1,"method":"hook.before_tool","params":{"tool":"t","arguments":{}}}`), ""))
}

func TestAnUnknownMethodNamesTheNearestKnownOne(t *testing.T) {
	err := validator(t).Validate([]byte(`{"jsonrpc":"2.0","id":1,"method":"hook.befor_tool","params":{}}`), "")
	assert.EqualError(t, err, `/method: unknown method "hook.befor_tool" (did you mean "hook.before_tool"?) (rule method)`)
}
