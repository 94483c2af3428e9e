package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The golden TypeScript is only text to the golden test; this type-checks
// the fixture's with the SDK's compiler and options, against a stand-in for
// the SDK's hand-written Handler, and checks that a hook gets paint.mix's
// registration and test client call, typed by the method table alone.
func TestTheFixturesTypeScriptTypeChecks(t *testing.T) {
	tsc, err := filepath.Abs(filepath.Join("..", "sdk-node", "node_modules", "typescript", "bin", "tsc"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tsc); err != nil {
		t.Fatalf("the SDK's TypeScript compiler is not installed (run go tool mage deps): %v", err)
	}
	outs, err := generate(fixture, "hookwire.schema.json", "methods.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"tsconfig.json": `{"compilerOptions": {"target": "ES2022", "lib": ["ES2022"], "module": "NodeNext",
  "moduleResolution": "NodeNext", "strict": true, "noUncheckedIndexedAccess": true,
  "noImplicitOverride": true, "noEmit": true, "types": []}}`,
		"package.json": `{"type": "module"}`,
		// The SDK's Handler takes a context too; its shape is all that matters here.
		"handlers.ts": `import type { Intercepted } from "./exports.gen.js";
import type { Requests } from "./protocol.gen.js";
export type Handler<M extends Intercepted> = (params: Requests[M]["params"]) => Requests[M]["result"];
`,
		"use.ts": `import type { Intercepted, MixReply, Paint } from "./exports.gen.js";
import type { Handler } from "./handlers.js";
import { HookMethods, TestClientMethods, routes } from "./methods.gen.js";

class Hook extends HookMethods {
  override handle<M extends Intercepted>(_method: M, _handler: Handler<M>): this {
    return this;
  }
}
new Hook().mix((paint) => ({ action: "stop", paint }));
// @ts-expect-error paint.mix does not allow retry_later
new Hook().mix(() => ({ action: "retry_later" }));

class Client extends TestClientMethods {
  protected override result<R>(_method: string, _params: unknown): Promise<R> {
    return new Promise(() => {});
  }
}
const reply: Promise<MixReply> = new Client().mix({} as Paint);
void reply;
const unhandled: MixReply | undefined = routes["paint.mix"].unhandled;
void unhandled;
`,
	}
	for _, o := range outs {
		if name, ok := strings.CutPrefix(o.Path, "sdk-node/src/"); ok {
			files[name] = string(o.Data)
		}
	}
	// The SDK's hand-written modules that the generated ones import, and
	// that no stand-in above replaces.
	for _, o := range outs {
		if !strings.HasPrefix(o.Path, "sdk-node/src/") {
			continue
		}
		for _, m := range regexp.MustCompile(`(?m)^\s*(?:import|export)\b[^;]*?\bfrom "\./([\w.]+)\.js"`).FindAllStringSubmatch(string(o.Data), -1) {
			name := m[1] + ".ts"
			if _, ok := files[name]; ok {
				continue
			}
			src, err := os.ReadFile(filepath.Join("..", "sdk-node", "src", name))
			if err != nil {
				t.Fatal(err)
			}
			files[name] = string(src)
		}
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("node", tsc, "-p", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
}
