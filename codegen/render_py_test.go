package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestThePythonAllListsWhatThePackageReExportsOfTheModule(t *testing.T) {
	src := fixturePython(t)
	// Top-level statements start at column 0: NAME = ..., NAME: T = ...,
	// class NAME(...), def NAME(...). The types are among them: they are
	// defined at run time, not under if TYPE_CHECKING.
	statement := `(?:class |def )?([A-Za-z]\w*)\b(?:\s*[=:(])`
	var defined []string
	for _, m := range regexp.MustCompile(`(?m)^`+statement).FindAllStringSubmatch(src, -1) {
		defined = append(defined, m[1])
	}
	if strings.Contains(src, "TYPE_CHECKING") {
		t.Error("the module defines names under TYPE_CHECKING: its types are for run time too")
	}
	_, list, ok := strings.Cut(src, "\n__all__ = [\n")
	if !ok {
		t.Fatal("no __all__")
	}
	list, _, _ = strings.Cut(list, "\n]\n")
	var all []string
	for _, line := range strings.Split(list, "\n") {
		all = append(all, strings.Trim(line, ` ",`))
	}
	for _, want := range []string{"CODE_STILL_WET", "ERROR_CODES", "EXT_PAINT_LAYER_UNDO", "HOST_EXTENSIONS", "Paint", "MixReply"} {
		if !slices.Contains(all, want) {
			t.Errorf("__all__ does not list %s", want)
		}
	}
	for _, name := range all {
		if !slices.Contains(defined, name) {
			t.Errorf("__all__ lists %s, which the module does not define", name)
		}
	}
	sdkOnly := func(name string) bool {
		if strings.HasPrefix(name, "decode_") || name == "MethodInfo" {
			return true
		}
		// The constants of each enum value, method and event kind, and the
		// SDK's tables; error codes and host extensions are for hooks too.
		return strings.ToUpper(name) == name && !strings.HasPrefix(name, "CODE_") && !strings.HasPrefix(name, "EXT_")
	}
	for _, name := range defined {
		if !slices.Contains(all, name) && !sdkOnly(name) {
			t.Errorf("the module defines %s, which __all__ does not list", name)
		}
	}
}

// Each method a hook handles (a request with a hello mode) gets its
// decorator, its test client's call and its row in the dispatch tables,
// from the method table alone: paint.mix was added with no other change.
func TestThePythonSurfaceHasEveryMethodAHookHandles(t *testing.T) {
	src := fixtureMethods(t)
	for _, want := range []string{
		"    def mix(self, fn: _MixHandler) -> _MixHandler:\n",
		"        self._register(METHOD_MIX, fn)\n",
		"    def mix(self, params: Paint) -> MixReply:\n",
		"        return cast(\"MixReply\", self.call(METHOD_MIX, params))\n",
		"        METHOD_MIX,\n", // in NEEDS_HANDLER: it allows no continue
		"    def apply(self, fn: _ApplyHandler)",
		"    def peek(self, fn: _PeekHandler)",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the module has no %q", want)
		}
	}
	// paint.echo has no hello mode and paint.tick is a notification:
	// neither has a handler of its own.
	for _, unwanted := range []string{"def echo(", "def tick("} {
		if strings.Contains(src, unwanted) {
			t.Errorf("the module has %q", unwanted)
		}
	}
}

// fixturePython is the fixture's Python module.
func fixturePython(t *testing.T) string {
	return fixtureFile(t, "_protocol_gen.py")
}

// fixtureMethods is the fixture's Python method surface.
func fixtureMethods(t *testing.T) string {
	return fixtureFile(t, "_methods_gen.py")
}

func fixtureFile(t *testing.T, name string) string {
	t.Helper()
	outs, err := generate(fixture, "hookwire.schema.json", "methods.json")
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(outs, func(o Output) bool { return strings.HasSuffix(o.Path, "/"+name) })
	return string(outs[i].Data)
}

func TestPythonRejectsAReplyTypeNamedLikeAType(t *testing.T) {
	m, err := Load([]byte(`{"$defs": {
		"Mode": {"type": "string", "enum": ["m"]},
		"Action": {"type": "string", "enum": ["continue"]},
		"P": {"type": "object"},
		"Continue": {"type": "object", "properties": {"action": {"type": "string", "const": "continue"}}, "required": ["action"]},
		"R": {"oneOf": [{"$ref": "#/$defs/Continue"}], "discriminator": {"propertyName": "action", "mapping": {"continue": "#/$defs/Continue"}}},
		"StepReply": {"type": "object"}}}`),
		[]byte(`{"version": 1, "methods": [{"method": "x.step", "kind": "request", "mode": "m", "params": "P", "result": "R", "actions": ["continue"],
			"overLimit": {"error": -32000}}],
			"errorCodes": [{"name": "HandlerError", "code": -32000}],
			"lineLimit": {"defaultBytes": 100, "reason": "{limit}", "cutMarker": "{cut}"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Render(m); err == nil || !strings.Contains(err.Error(), "StepReply, is also the name of a type") {
		t.Fatalf("got %v", err)
	}
}

// The golden Python is only text to the golden test; this type-checks the
// fixture's module with the SDK's mypy, strict, on the oldest Python the
// SDK supports, and runs it: a hook gets paint.mix's decorator, typed by
// the method table alone, and the test client its call.
func TestTheFixturesPythonTypeChecksAndRuns(t *testing.T) {
	bin, err := filepath.Abs(filepath.Join("..", ".venv", "bin"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(bin, "mypy")); err != nil {
		t.Fatalf("the SDK's dev tools are not installed (run go tool mage deps): %v", err)
	}
	dir := t.TempDir()
	pkg := filepath.Join(dir, "hookwire")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		filepath.Join(pkg, "__init__.py"):      "",
		filepath.Join(pkg, "_protocol_gen.py"): fixturePython(t),
		filepath.Join(pkg, "_methods_gen.py"):  fixtureMethods(t),
		filepath.Join(dir, "use.py"): `from typing import Callable

from hookwire._methods_gen import NEEDS_HANDLER, _Handlers, _TestCalls
from hookwire._protocol_gen import METHOD_APPLY, METHOD_MIX, MixReply, Paint


class Hook(_Handlers):
    def __init__(self) -> None:
        self.handlers: dict[str, Callable[..., object]] = {}

    def _register(self, method: str, fn: Callable[..., object]) -> None:
        self.handlers[method] = fn


hook = Hook()


@hook.mix
def mix(paint: Paint) -> MixReply:
    return {"action": "stop", "paint": paint}


@hook.apply  # type: ignore[type-var]
def wrong(paint: Paint) -> int:
    return 1


class Client(_TestCalls):
    def call(self, method: str, params: object) -> object:
        return hook.handlers[method](params)


paint: Paint = {"color": "red", "layers": [{"depth": 1}], "labels": {}}
reply: MixReply = Client().mix(paint)
assert reply == {"action": "stop", "paint": paint}, reply
assert sorted(hook.handlers) == [METHOD_APPLY, METHOD_MIX]
assert METHOD_MIX in NEEDS_HANDLER
`,
	}
	// The SDK's hand-written modules that the generated ones import.
	generated := files[filepath.Join(pkg, "_protocol_gen.py")] + files[filepath.Join(pkg, "_methods_gen.py")]
	for _, m := range regexp.MustCompile(`(?m)^\s*from \.(\w+) import`).FindAllStringSubmatch(generated, -1) {
		if _, ok := files[filepath.Join(pkg, m[1]+".py")]; ok {
			continue
		}
		src, err := os.ReadFile(filepath.Join("..", "sdk-python", "src", "hookwire", m[1]+".py"))
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Join(pkg, m[1]+".py")] = string(src)
	}
	for path, src := range files {
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// --strict warns of an unused ignore: the wrong handler must be refused.
	mypy := exec.Command(filepath.Join(bin, "mypy"), "--strict", "--python-version", "3.9", "--no-incremental", "--cache-dir", os.DevNull, "use.py", "hookwire")
	mypy.Dir = dir
	if out, err := mypy.CombinedOutput(); err != nil {
		t.Errorf("mypy: %v\n%s", err, out)
	}
	python := exec.Command(filepath.Join(bin, "python"), "use.py")
	python.Dir = dir
	if out, err := python.CombinedOutput(); err != nil {
		t.Errorf("python: %v\n%s", err, out)
	}
}
