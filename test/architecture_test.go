package test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// listedPackage is the part of `go list -json` output the rules need.
type listedPackage struct {
	ImportPath string
	Standard   bool
	Imports    []string // direct imports
	Deps       []string // all transitive dependencies (informational; the rules walk Imports)
}

type violation struct {
	Package string // the offending package of this module
	Import  string // what it must not depend on
	Rule    string
	Via     []string // import chain from Package to Import, when transitive
}

func (v violation) String() string {
	if len(v.Via) > 2 {
		return fmt.Sprintf("%s depends on %s: %s (via %s)", v.Package, v.Import, v.Rule, strings.Join(v.Via, " -> "))
	}
	return fmt.Sprintf("%s imports %s: %s", v.Package, v.Import, v.Rule)
}

// under reports whether path is prefix itself or a package below it.
func under(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

// checkArchitecture applies the hexagonal layering rules to the packages of
// module (pkgs as `go list -deps -json` prints them: the module's packages
// and everything they depend on):
//
//   - domain/... depends only on the standard library and domain/...;
//   - application/... and ports/... depend (even transitively) on nothing in
//     adapters/..., bootstrap/..., github.com/uptrace/bun..., go.uber.org/fx...,
//     and do not import net/http... directly;
//   - only bootstrap/... and test/... import go.uber.org/fx... directly.
func checkArchitecture(module string, pkgs []listedPackage) []violation {
	byPath := make(map[string]*listedPackage, len(pkgs))
	for i := range pkgs {
		byPath[pkgs[i].ImportPath] = &pkgs[i]
	}
	standard := func(p string) bool {
		if lp, ok := byPath[p]; ok {
			return lp.Standard
		}
		// "C" is cgo's pseudo-package (net and os/user import it); anything
		// else unknown (a package that does not exist) is not standard.
		return p == "C"
	}
	// frontier returns the forbidden packages that pkg depends on through
	// allowed packages only: what pkg, or an allowed package it depends on,
	// imports directly. Each offending edge is reported once, not the whole
	// dependency tree below it. With each, it returns an import chain.
	frontier := func(pkg listedPackage, forbidden func(string) bool) map[string][]string {
		prev := map[string]string{pkg.ImportPath: ""}
		queue := []string{pkg.ImportPath}
		found := map[string][]string{}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			lp, ok := byPath[p]
			if !ok {
				continue
			}
			for _, imp := range lp.Imports {
				if _, seen := prev[imp]; seen {
					continue
				}
				prev[imp] = p
				if !forbidden(imp) {
					queue = append(queue, imp)
					continue
				}
				var c []string
				for q := imp; q != ""; q = prev[q] {
					c = append([]string{q}, c...)
				}
				found[imp] = c
			}
		}
		return found
	}
	report := func(vs []violation, path string, found map[string][]string, rule string) []violation {
		imps := make([]string, 0, len(found))
		for imp := range found {
			imps = append(imps, imp)
		}
		sort.Strings(imps)
		for _, imp := range imps {
			vs = append(vs, violation{path, imp, rule, found[imp]})
		}
		return vs
	}

	var (
		domain      = module + "/domain"
		application = module + "/application"
		ports       = module + "/ports"
		adapters    = module + "/adapters"
		bootstrap   = module + "/bootstrap"
		testPkgs    = module + "/test"
	)
	isFx := func(p string) bool { return strings.HasPrefix(p, "go.uber.org/fx") }

	var vs []violation
	for _, p := range pkgs {
		path := p.ImportPath
		if !under(path, module) {
			continue
		}
		if under(path, domain) {
			vs = report(vs, path, frontier(p, func(d string) bool {
				return !standard(d) && !under(d, domain)
			}), "domain may depend only on the standard library and domain/...")
		}
		if under(path, application) || under(path, ports) {
			vs = report(vs, path, frontier(p, func(d string) bool {
				return under(d, adapters) || under(d, bootstrap) ||
					strings.HasPrefix(d, "github.com/uptrace/bun") || isFx(d)
			}), "application and ports must not depend on adapters, bootstrap, bun or fx")
			for _, imp := range p.Imports {
				if under(imp, "net/http") {
					vs = append(vs, violation{path, imp, "application and ports must not import net/http", nil})
				}
			}
		}
		if !under(path, bootstrap) && !under(path, testPkgs) {
			for _, imp := range p.Imports {
				if isFx(imp) {
					vs = append(vs, violation{path, imp, "only bootstrap/... (and test/...) may import fx", nil})
				}
			}
		}
	}
	return vs
}

// moduleRoot walks up from the working directory to the directory holding
// go.mod and returns it and the module path.
func moduleRoot(t *testing.T) (dir, module string) {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			sc := bufio.NewScanner(bytes.NewReader(data))
			for sc.Scan() {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module"); ok {
					return dir, strings.Trim(strings.TrimSpace(rest), `"`)
				}
			}
			t.Fatalf("no module line in %s/go.mod", dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the working directory")
		}
		dir = parent
	}
}

func TestArchitecture(t *testing.T) {
	root, module := moduleRoot(t)
	// -e: a package that does not build yet must not hide the others' imports.
	cmd := exec.Command("go", "list", "-e", "-deps", "-json=ImportPath,Standard,Imports,Deps", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("decode go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	own := 0
	for _, p := range pkgs {
		if under(p.ImportPath, module) {
			own++
		}
	}
	if own == 0 {
		t.Fatalf("go list found no packages of %s in %s", module, root)
	}
	for _, v := range checkArchitecture(module, pkgs) {
		t.Error(v)
	}
}

func TestCheckArchitectureCatchesViolations(t *testing.T) {
	const m = "example.com/inv"
	std := func(path string, imports ...string) listedPackage {
		return listedPackage{ImportPath: path, Standard: true, Imports: imports, Deps: imports}
	}
	pkg := func(path string, imports, deps []string) listedPackage {
		return listedPackage{ImportPath: path, Imports: imports, Deps: deps}
	}
	// A tree that keeps every rule.
	clean := []listedPackage{
		std("errors"), std("fmt"), std("net/http"), std("context"),
		pkg(m+"/domain/errs", []string{"errors", "fmt"}, []string{"errors", "fmt"}),
		pkg(m+"/domain/stock", []string{m + "/domain/errs"}, []string{"errors", "fmt", m + "/domain/errs"}),
		pkg(m+"/ports", []string{"context", m + "/domain/stock"}, []string{"context", "errors", "fmt", m + "/domain/errs", m + "/domain/stock"}),
		pkg(m+"/application", []string{m + "/ports", "example.com/lib"}, []string{"example.com/lib", "net/http", m + "/ports"}),
		pkg("example.com/lib", []string{"net/http"}, []string{"net/http"}),
		pkg("github.com/uptrace/bun", nil, nil),
		pkg("go.uber.org/fx", nil, nil),
		pkg("go.uber.org/fx/fxevent", nil, nil),
		pkg(m+"/adapters/db", []string{"github.com/uptrace/bun", m + "/ports"}, []string{"github.com/uptrace/bun", m + "/ports"}),
		pkg(m+"/adapters/http", []string{"net/http"}, []string{"net/http"}),
		pkg(m+"/bootstrap", []string{"go.uber.org/fx", m + "/adapters/db"}, []string{"go.uber.org/fx", m + "/adapters/db", "github.com/uptrace/bun"}),
		pkg(m+"/test/e2e", []string{"go.uber.org/fx"}, []string{"go.uber.org/fx"}),
	}
	if vs := checkArchitecture(m, clean); len(vs) != 0 {
		t.Fatalf("clean tree reported %v", vs)
	}

	cases := []struct {
		name string
		bad  listedPackage
		want violation // Package and Import
	}{
		{"domain imports a third-party package",
			pkg(m+"/domain/x", []string{"example.com/lib"}, []string{"example.com/lib", "net/http"}),
			violation{Package: m + "/domain/x", Import: "example.com/lib"}},
		{"domain depends transitively on application",
			pkg(m+"/domain/x", []string{m + "/domain/stock", m + "/application"}, []string{m + "/domain/stock", m + "/application"}),
			violation{Package: m + "/domain/x", Import: m + "/application"}},
		{"application depends transitively on an adapter",
			pkg(m+"/application/y", []string{"example.com/lib2"}, []string{"example.com/lib2", m + "/adapters/db"}),
			violation{Package: m + "/application/y", Import: m + "/adapters/db"}},
		{"ports imports bootstrap",
			pkg(m+"/ports/y", []string{m + "/bootstrap"}, []string{m + "/bootstrap"}),
			violation{Package: m + "/ports/y", Import: m + "/bootstrap"}},
		{"application imports bun",
			pkg(m+"/application/y", []string{"github.com/uptrace/bun"}, []string{"github.com/uptrace/bun"}),
			violation{Package: m + "/application/y", Import: "github.com/uptrace/bun"}},
		{"ports depends on an fx subpackage",
			pkg(m+"/ports/y", []string{"example.com/lib3"}, []string{"example.com/lib3", "go.uber.org/fx/fxevent"}),
			violation{Package: m + "/ports/y", Import: "go.uber.org/fx/fxevent"}},
		{"application imports net/http directly",
			pkg(m+"/application/y", []string{"net/http"}, []string{"net/http"}),
			violation{Package: m + "/application/y", Import: "net/http"}},
		{"adapter imports fx",
			pkg(m+"/adapters/z", []string{"go.uber.org/fx"}, []string{"go.uber.org/fx"}),
			violation{Package: m + "/adapters/z", Import: "go.uber.org/fx"}},
		{"module root imports fx",
			pkg(m, []string{"go.uber.org/fx"}, []string{"go.uber.org/fx"}),
			violation{Package: m, Import: "go.uber.org/fx"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pkgs := append(append([]listedPackage(nil), clean...), c.bad,
				pkg("example.com/lib2", []string{m + "/adapters/db"}, []string{m + "/adapters/db"}),
				pkg("example.com/lib3", []string{"go.uber.org/fx/fxevent"}, []string{"go.uber.org/fx/fxevent"}),
			)
			vs := checkArchitecture(m, pkgs)
			found := false
			for _, v := range vs {
				if v.Package == c.want.Package && v.Import == c.want.Import {
					found = true
					t.Log(v)
				}
			}
			if !found {
				t.Errorf("no violation %s -> %s; got %v", c.want.Package, c.want.Import, vs)
			}
		})
	}

	// net/http is only forbidden as a direct import: application/... reaching
	// it through a library is fine (the clean tree has example.com/lib).
}
