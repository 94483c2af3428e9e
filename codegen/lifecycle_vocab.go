package main

import (
	"fmt"
	"slices"
	"strings"
)

// lifecycleVocabulary is the lifecycle layer's public vocabulary besides the events
// and their inputs: the module's doc and example, the actions a callback
// answers and its output, the callback and hooks types, canUseTool's
// behaviors, result and options, and the options of a lifecycle hook. Each
// type's doc is a predicate ("is what a callback decides."), so that Go
// writes it after the name, as its doc comments do.
type lifecycleVocabulary struct {
	Hook             vocabDoc          `json:"hook"`
	Doc              vocabDoc          `json:"doc"`
	Example          map[string]string `json:"example"`
	Action           vocabType         `json:"action"`
	Output           vocabType         `json:"output"`
	Callback         vocabType         `json:"callback"`
	Hooks            vocabType         `json:"hooks"`
	Behavior         vocabType         `json:"behavior"`
	PermissionResult vocabType         `json:"permission_result"`
	Options          vocabType         `json:"can_use_tool_options"`
	CanUseTool       vocabType         `json:"can_use_tool"`
	HookOptions      vocabType         `json:"options"`
}

// vocabDoc is a doc, with what one language adds to it.
type vocabDoc struct {
	Doc        string `json:"doc"`
	Go         string `json:"go"`
	Python     string `json:"python"`
	TypeScript string `json:"typescript"`
}

type vocabType struct {
	vocabDoc
	Values  []vocabValue  `json:"values"`
	Members []vocabMember `json:"members"`
}

type vocabValue struct {
	Name string `json:"name"`
	vocabDoc
}

type vocabMember struct {
	Name string `json:"name"`
	Type string `json:"type"`
	// Behavior is the canUseTool behavior a member of its result goes with.
	Behavior string `json:"behavior"`
	Optional bool   `json:"optional"`
	// Languages that have the member; all when empty.
	Languages []string `json:"languages"`
	vocabDoc
}

// text is the doc in a language (go, python, typescript), with what that
// language adds, and canUseTool under the language's name.
func (d vocabDoc) text(lang string) string {
	doc := strings.ReplaceAll(d.Doc, "canUseTool", map[string]string{"go": "CanUseTool", "python": "can_use_tool", "typescript": "canUseTool"}[lang])
	return strings.TrimSpace(doc + " " + map[string]string{"go": d.Go, "python": d.Python, "typescript": d.TypeScript}[lang])
}

// sentence is a predicate doc as a sentence of its own: "is what a
// callback decides." is "What a callback decides."
func sentence(predicate string) string {
	_, rest, ok := strings.Cut(predicate, " ")
	if first, _, _ := strings.Cut(predicate, " "); !ok || first != "is" && first != "are" {
		rest = predicate
	}
	return strings.ToUpper(rest[:1]) + rest[1:]
}

func (m vocabMember) in(lang string) bool {
	return len(m.Languages) == 0 || slices.Contains(m.Languages, lang)
}

// modifiedDoc is what a modified input or output replaces in each event
// that uses it, after the member's own doc.
func (t *lifecycleTable) modifiedDoc(m vocabMember, lang string) string {
	var parts []string
	var docs []string
	byDoc := map[string][]string{}
	for _, e := range t.Events {
		if e.Modify != nil && e.Modify.With == m.Name {
			if byDoc[e.Modify.Doc] == nil {
				docs = append(docs, e.Modify.Doc)
			}
			byDoc[e.Modify.Doc] = append(byDoc[e.Modify.Doc], e.Name)
		}
	}
	for _, d := range docs {
		parts = append(parts, "in "+strings.Join(byDoc[d], " and ")+", "+d)
	}
	doc := strings.TrimSuffix(m.text(lang), ".")
	if len(parts) > 0 {
		doc += ": " + strings.Join(parts, "; ")
	}
	return doc + "."
}

// goVocabTypes are the Go types of the vocabulary's member types.
var goVocabTypes = map[string]string{
	"action": "Action", "behavior": "Behavior", "string": "string", "any": "any", "bool": "bool",
	"arguments": "map[string]any", "tool_kind": "hookwire.ToolKind", "paths": "[]string",
	"hooks": "Hooks", "can_use_tool": "CanUseTool",
}

// goDoc is a Go doc comment of text, indented by indent.
func goDoc(indent, text string) string {
	return comment(indent+"// ", wrap(text, 74-len(indent)), "")
}

// goPackageDoc is the package doc, with its example.
func (t *lifecycleTable) goPackageDoc() string {
	doc := strings.Replace(t.Vocabulary.Doc.text("go"), "Lifecycle hooks: the vocabulary", "Package lifecycle gives hookwire hooks the vocabulary", 1)
	example := "\t" + strings.ReplaceAll(t.Vocabulary.Example["go"], "\n", "\n\t")
	return goDoc("", doc) + "//\n" + comment("//", example, "")
}

// goVocabulary renders the vocabulary in Go.
func (t *lifecycleTable) goVocabulary(b *strings.Builder) {
	v := t.Vocabulary
	enum := func(name string, vt vocabType) {
		b.WriteString(goDoc("", name+" "+vt.text("go")) + "type " + name + " string\n\nconst (\n")
		for _, val := range vt.Values {
			fmt.Fprintf(b, "%s\t%s %s = %q\n", goDoc("\t", pascal(val.Name)+" "+val.text("go")), pascal(val.Name), name, val.Name)
		}
		b.WriteString(")\n\n")
	}
	object := func(name string, vt vocabType) {
		b.WriteString(goDoc("", name+" "+vt.text("go")) + "type " + name + " struct {\n")
		for _, m := range vt.Members {
			if !m.in("go") {
				continue
			}
			doc := m.text("go")
			if strings.HasPrefix(m.Name, "modified_") {
				doc = t.modifiedDoc(m, "go")
			}
			if doc != "" {
				b.WriteString(goDoc("\t", pascal(m.Name)+" "+doc))
			}
			fmt.Fprintf(b, "\t%s %s\n", pascal(m.Name), goVocabTypes[m.Type])
		}
		b.WriteString("}\n\n")
	}
	enum("Action", v.Action)
	object("Output", v.Output)
	b.WriteString(goDoc("", "Callback "+v.Callback.text("go")) + "type Callback func(ctx context.Context, in Input) (Output, error)\n\n")
	b.WriteString(goDoc("", "Hooks "+v.Hooks.text("go")) + "type Hooks map[Event][]Callback\n\n")
	enum("Behavior", v.Behavior)
	object("PermissionResult", v.PermissionResult)
	object("CanUseToolOptions", v.Options)
	b.WriteString(goDoc("", "CanUseTool "+v.CanUseTool.text("go")) + "type CanUseTool func(ctx context.Context, toolName string, input map[string]any, opts CanUseToolOptions) (PermissionResult, error)\n\n")
	object("Options", v.HookOptions)
}

// tsVocabTypes are the TypeScript types of the vocabulary's member types.
var tsVocabTypes = map[string]string{
	"string": "string", "bool": "boolean", "arguments": "ToolInput", "tool_kind": "ToolKind", "paths": "string[]",
	"signal": "AbortSignal", "hooks": "LifecycleHooks", "can_use_tool": "CanUseTool", "log": "(message: string) => void",
}

// tsVocabulary renders the module doc and the vocabulary in TypeScript: an
// output type per action (and per modified value, with continue), and what
// a callback of each event may answer, as its row says.
func (t *lifecycleTable) tsVocabulary(b *strings.Builder) {
	v := t.Vocabulary
	var modified []vocabMember
	for _, m := range v.Output.Members {
		if strings.HasPrefix(m.Name, "modified_") {
			modified = append(modified, m)
		}
	}
	output := func(name, action string, with vocabMember, typ string) {
		fmt.Fprintf(b, "export interface %s {\n  action: %q;\n  reason?: string;\n", name, action)
		for _, m := range modified {
			if m.Name == with.Name {
				fmt.Fprintf(b, "%s  %s?: %s;\n", tsDoc("  ", sentence(t.modifiedDoc(m, "typescript")), ""), tsCamel(m.Name), typ)
			} else {
				fmt.Fprintf(b, "  %s?: never;\n", tsCamel(m.Name))
			}
		}
		b.WriteString("}\n")
	}
	b.WriteString("// modifiedInput and modifiedOutput are `never` where an event has no use for\n// them, so that a callback answering one there does not compile.\n\n")
	for _, a := range v.Action.Values {
		b.WriteString(tsDoc("", sentence(a.text("typescript")), ""))
		output("Hook"+pascal(a.Name), a.Name, vocabMember{}, "")
		if a.Name != "continue" {
			continue
		}
		for _, m := range modified {
			// A modified input's type is the event's; an output is one of a few.
			name, typ := "HookModifyInput<T>", "T"
			if m.Name == "modified_output" {
				name, typ = "HookModifyOutput", strings.Join(t.modifiedTypes(m.Name, "typescript"), " | ")
			}
			b.WriteString(tsDoc("", "Continue, with a "+strings.ReplaceAll(m.Name, "_", " ")+".", ""))
			output(name, a.Name, m, typ)
		}
	}
	fmt.Fprintf(b, "\n%sexport type HookOutputs = {\n", tsDoc("", "What a callback of each event may answer: skip and abort where the lifecycle table offers them.", ""))
	for _, e := range t.Events {
		answers := []string{"HookContinue"}
		if e.Modify != nil && e.Modify.With == "modified_input" {
			answers[0] = "HookModifyInput<" + fieldTypes[t.fieldType(e.Modify.Field)].ts + ">"
		} else if e.Modify != nil {
			answers[0] = "HookModifyOutput"
		}
		if e.Skip != nil {
			answers = append(answers, "HookSkip")
		}
		if e.Abort != nil {
			answers = append(answers, "HookAbort")
		}
		fmt.Fprintf(b, "  %s: %s;\n", e.Name, strings.Join(answers, " | "))
	}
	b.WriteString("};\n")
	fmt.Fprintf(b, "%sexport type HookOutput<E extends HookEvent = HookEvent> = HookOutputs[E];\n\n", tsDoc("", sentence(v.Output.text("typescript"))+" By event.", ""))
	fmt.Fprintf(b, "%sexport type HookCallback<E extends HookEvent> = (input: HookInputs[E], ctx: Context) => Awaitable<HookOutputs[E]>;\n\n", tsDoc("", sentence(v.Callback.text("typescript")), ""))
	fmt.Fprintf(b, "%sexport type LifecycleHooks = { [E in HookEvent]?: readonly HookCallback<E>[] };\n\n", tsDoc("", sentence(v.Hooks.text("typescript")), ""))
	object := func(name string, vt vocabType) {
		fmt.Fprintf(b, "%sexport interface %s {\n", tsDoc("", sentence(vt.text("typescript")), ""), name)
		for _, m := range vt.Members {
			if m.in("typescript") {
				opt := map[bool]string{true: "?"}[m.Optional || m.Type == "tool_kind" || m.Type == "hooks" || m.Type == "can_use_tool" || m.Type == "log"]
				fmt.Fprintf(b, "%s  %s%s: %s;\n", tsDoc("  ", tsCamel(m.Name)+" "+m.text("typescript"), ""), tsCamel(m.Name), opt, tsVocabTypes[m.Type])
			}
		}
		b.WriteString("}\n\n")
	}
	object("CanUseToolOptions", v.Options)
	fmt.Fprintf(b, "%sexport type PermissionResult =\n", tsDoc("", sentence(v.PermissionResult.text("typescript")), ""))
	for _, behavior := range v.Behavior.Values {
		members := []string{"behavior: " + quote(behavior.Name)}
		for _, m := range v.PermissionResult.Members {
			if m.Behavior == behavior.Name {
				members = append(members, tsCamel(m.Name)+map[bool]string{true: "?"}[m.Optional]+": "+tsVocabTypes[m.Type])
			}
		}
		fmt.Fprintf(b, "%s  | { %s }", tsDoc("  ", sentence(behavior.text("typescript")), ""), strings.Join(members, "; "))
		b.WriteString(map[bool]string{true: ";\n\n", false: "\n"}[behavior.Name == v.Behavior.Values[len(v.Behavior.Values)-1].Name])
	}
	fmt.Fprintf(b, "%sexport type CanUseTool = (toolName: string, input: ToolInput, options: CanUseToolOptions) => Awaitable<PermissionResult>;\n\n", tsDoc("", sentence(v.CanUseTool.text("typescript")), ""))
	object("LifecycleOptions", v.HookOptions)
}

// pyVocabTypes are the Python types of the vocabulary's member types.
var pyVocabTypes = map[string]string{
	"string": "str", "bool": "bool", "arguments": "ToolInput", "tool_kind": "ToolKind | None", "paths": "list[str]",
}

// pyDoc is a docstring of text, indented by indent.
func pyDoc(indent, text string) string {
	return indent + `"""` + strings.ReplaceAll(wrap(text, 95-len(indent)), "\n", "\n"+indent) + `"""` + "\n"
}

// pyTypedDict renders a TypedDict of required and optional members, with a
// base class of the required ones when there are both.
func pyTypedDict(b *strings.Builder, name, doc string, required, optional []string) {
	base := "TypedDict"
	if len(required) > 0 && len(optional) > 0 {
		fmt.Fprintf(b, "\n\nclass _%sRequired(TypedDict):\n    %s\n", name, strings.Join(required, "\n    "))
		base, required = "_"+name+"Required, total=False", optional
	} else if len(optional) > 0 {
		base, required = "TypedDict, total=False", optional
	}
	fmt.Fprintf(b, "\n\nclass %s(%s):\n%s\n    %s\n", name, base, pyDoc("    ", doc), strings.Join(required, "\n    "))
}

// pyVocabulary renders the vocabulary in Python: HookOutput, the callbacks
// of each event, and can_use_tool's options, verdicts and type.
func (t *lifecycleTable) pyVocabulary(b *strings.Builder) {
	v := t.Vocabulary
	var actions, docs []string
	for _, a := range v.Action.Values {
		actions = append(actions, quote(a.Name))
		docs = append(docs, a.Name+" "+a.text("python"))
	}
	var optional []string
	for _, m := range v.Output.Members[1:] {
		typ, doc := "str", m.text("python")
		if strings.HasPrefix(m.Name, "modified_") {
			typ, doc = strings.Join(t.modifiedTypes(m.Name, "python"), " | "), t.modifiedDoc(m, "python")
			if typ == "" {
				continue
			}
		}
		optional = append(optional, m.Name+": "+typ+"\n"+strings.TrimSuffix(pyDoc("    ", m.Name+" "+doc), "\n"))
	}
	pyTypedDict(b, "HookOutput", sentence(v.Output.text("python"))+" "+strings.Join(docs, " "), []string{"action: Literal[" + strings.Join(actions, ", ") + "]"}, optional)
	b.WriteString("\n\n_Reply = Union[HookOutput, Awaitable[HookOutput]]\n")
	fmt.Fprintf(b, "\n\nclass LifecycleHooks(TypedDict, total=False):\n%s\n", pyDoc("    ", sentence(v.Hooks.text("python"))+" "+strings.TrimPrefix(sentence(v.Callback.text("python")), "A lifecycle callback. ")))
	for _, e := range t.Events {
		fmt.Fprintf(b, "    %s: Sequence[Callable[[%sInput], _Reply]]\n", e.Name, e.Name)
	}
	fmt.Fprintf(b, "\n\n@dataclass(frozen=True)\nclass CanUseToolOptions:\n%s\n", pyDoc("    ", sentence(v.Options.text("python"))))
	for _, m := range v.Options.Members {
		if m.in("python") {
			fmt.Fprintf(b, "    %s: %s\n%s", m.Name, pyVocabTypes[m.Type], pyDoc("    ", m.Name+" "+m.text("python")))
		}
	}
	var verdicts []string
	for _, behavior := range v.Behavior.Values {
		name := "Permission" + pascal(behavior.Name)
		required, optional := []string{"behavior: Literal[" + quote(behavior.Name) + "]"}, []string(nil)
		doc := sentence(behavior.text("python"))
		for _, m := range v.PermissionResult.Members {
			if m.Behavior != behavior.Name {
				continue
			}
			member := m.Name + ": " + pyVocabTypes[m.Type]
			if m.Optional {
				optional = append(optional, member)
			} else {
				required = append(required, member)
			}
			doc += " " + m.Name + " " + m.text("python")
		}
		pyTypedDict(b, name, doc, required, optional)
		verdicts = append(verdicts, name)
	}
	fmt.Fprintf(b, "\n\nPermissionResult = Union[%s]\n%s", strings.Join(verdicts, ", "), pyDoc("", sentence(v.PermissionResult.text("python"))))
	fmt.Fprintf(b, "\n# The doc of LifecycleHook, which subclasses Hook, in a module above this one.\nLIFECYCLE_HOOK_DOC: Final = \"\"\"%s\n\"\"\"\n", strings.ReplaceAll(wrap(sentence(v.Hook.text("python")), 79), "\n", "\n    "))
	fmt.Fprintf(b, "\nCanUseTool = Callable[\n    [str, ToolInput, CanUseToolOptions],\n    Union[PermissionResult, Awaitable[PermissionResult]],\n]\n%s", pyDoc("", sentence(v.CanUseTool.text("python"))+" Plain or async."))
}
