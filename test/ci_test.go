package test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// .ci/run, sourced, defines its steps as functions; these tests run them
// in conditions a fresh runner has.

func ciScript(t *testing.T) string {
	t.Helper()
	root, _ := moduleRoot(t)
	return filepath.Join(root, ".ci", "run")
}

// ciRun runs bash with .ci/run sourced, then script, in dir with env added.
func ciRun(t *testing.T, dir, script string, env ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("bash", "-c", ". "+ciScript(t)+"\n"+script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.email=ci@test", "-c", "user.name=ci"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestCIChecksTheFormatOfExistingFilesOnly(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ok.go", "package p\n")
	write("gone.go", "package p\n")
	write("sub dir/spaced name.go", "package p\n")
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "init")
	// Deleted in the work tree, the deletion not committed yet.
	if err := os.Remove(filepath.Join(dir, "gone.go")); err != nil {
		t.Fatal(err)
	}
	if out, err := ciRun(t, dir, "gofmt_check"); err != nil {
		t.Fatalf("gofmt_check with a deleted file: %v\n%s", err, out)
	}

	write("new.go", "package p\nfunc  f( ) {}\n")
	out, err := ciRun(t, dir, "gofmt_check")
	if err == nil || !strings.Contains(out, "new.go") {
		t.Fatalf("gofmt_check passed an unformatted new file: %v\n%s", err, out)
	}
}

// TestCIInstallsACCompilerWhenMissing runs the step with a PATH that has
// go but no C compiler, and an apt-get that records what it is asked for.
func TestCIInstallsACCompilerWhenMissing(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	bin := t.TempDir()
	for _, tool := range []string{"env", "id"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skip("no " + tool)
		}
		if err := os.Symlink(p, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(goBin, filepath.Join(bin, "go")); err != nil {
		t.Fatal(err)
	}
	chmod, err := exec.LookPath("chmod")
	if err != nil {
		t.Skip("no chmod")
	}
	log := filepath.Join(bin, "apt-get.log")
	fake := "#!/bin/sh\necho \"$*\" >> " + log + "\n" +
		"case \"$*\" in *install*gcc*) printf '#!/bin/sh\\n' > " + filepath.Join(bin, "gcc") + "; " + chmod + " +x " + filepath.Join(bin, "gcc") + ";; esac\n"
	if err := os.WriteFile(filepath.Join(bin, "apt-get"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "sudo"), []byte("#!/bin/sh\n[ \"$1\" = -n ] && shift\nexec \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The shell itself is found by its absolute path; PATH has no gcc.
	out, err := ciRun(t, t.TempDir(), "install_c_compiler", "PATH="+bin, "CC=")
	if err != nil {
		t.Fatalf("install_c_compiler: %v\n%s", err, out)
	}
	asked, _ := os.ReadFile(log)
	if !strings.Contains(string(asked), "install") || !strings.Contains(string(asked), "gcc") {
		t.Fatalf("apt-get was asked %q, want an install of gcc", asked)
	}

	// With a compiler present nothing is installed.
	os.Remove(log)
	if out, err := ciRun(t, t.TempDir(), "install_c_compiler", "PATH="+bin, "CC="); err != nil {
		t.Fatalf("install_c_compiler with gcc present: %v\n%s", err, out)
	}
	if _, err := os.Stat(log); err == nil {
		t.Error("apt-get ran although gcc was there")
	}
}

func TestCIBoundsTheTestStep(t *testing.T) {
	src, err := os.ReadFile(ciScript(t))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	joined := strings.ReplaceAll(string(src), "\\\n", " ")
	for _, line := range strings.Split(joined, "\n") {
		if strings.HasPrefix(line, "step ") && strings.Contains(line, "go test -race") {
			found = true
			if !strings.Contains(line, "-timeout") {
				t.Errorf("the test step has no -timeout: %s", strings.TrimSpace(line))
			}
		}
	}
	if !found {
		t.Fatal("no go test -race step in .ci/run")
	}
}

// TestCITestStepFailsOnASkipThatIsNotAllowed runs the test step's reader on
// a real `go test -json` of a small module: a skip that allowed_skips names
// passes; another skip fails and is named; a failure fails and its output
// is shown.
func TestCITestStepFailsOnASkipThatIsNotAllowed(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module skipdemo\n\ngo 1.22\n",
		"demo_test.go": `package skipdemo

import (
	"os"
	"testing"
)

func TestRuns(t *testing.T) {}

func TestAllowedSkip(t *testing.T) { t.Skip("no such device here") }

func TestOtherSkip(t *testing.T) {
	if os.Getenv("DEMO_SKIP") != "" {
		t.Skip("nothing to test against")
	}
}

func TestFails(t *testing.T) {
	if os.Getenv("DEMO_FAIL") != "" {
		t.Error("the demo failure")
	}
}
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const run = `allowed_skips=("TestAllowedSkip: the runner has no such device")
go_test_checked go test -json -count=1 ./...`

	out, err := ciRun(t, dir, run, "GOFLAGS=", "GOWORK=off")
	if err != nil || !strings.Contains(out, "--- SKIP: TestAllowedSkip") || !strings.Contains(out, "\n3 passed, 0 failed, 1 skipped\n0 skipped tests not allowed\n") {
		t.Errorf("an allowed skip: %v\n%s", err, out)
	}
	out, err = ciRun(t, dir, run, "GOFLAGS=", "GOWORK=off", "DEMO_SKIP=1")
	if err == nil || !strings.Contains(out, "skipped, not allowed: skipdemo TestOtherSkip") || strings.Contains(out, "not allowed: skipdemo TestAllowedSkip") {
		t.Errorf("a skip that is not allowed: %v\n%s", err, out)
	}
	out, err = ciRun(t, dir, run, "GOFLAGS=", "GOWORK=off", "DEMO_FAIL=1")
	if err == nil || !strings.Contains(out, "--- FAIL: TestFails") || !strings.Contains(out, "the demo failure") || strings.Contains(out, "=== RUN") {
		t.Errorf("a failing test: %v\n%s", err, out)
	}
}
