package test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCIInstallsChromiumWhenMissing: the console's browser tests need
// Chromium; .ci/run installs Debian's package when none is on the PATH, and
// leaves a present one alone.
func TestCIInstallsChromiumWhenMissing(t *testing.T) {
	bin := t.TempDir()
	for _, tool := range []string{"env", "id", "chmod"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skip("no " + tool)
		}
		if err := os.Symlink(p, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	log := filepath.Join(bin, "apt-get.log")
	chromium := filepath.Join(bin, "chromium")
	fake := "#!/bin/sh\necho \"$*\" >> " + log + "\n" +
		"case \"$*\" in *install*chromium*) printf '#!/bin/sh\\n' > " + chromium + "; chmod +x " + chromium + ";; esac\n"
	if err := os.WriteFile(filepath.Join(bin, "apt-get"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "sudo"), []byte("#!/bin/sh\n[ \"$1\" = -n ] && shift\nexec \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := ciRun(t, t.TempDir(), "install_chromium", "PATH="+bin)
	if err != nil {
		t.Fatalf("install_chromium: %v\n%s", err, out)
	}
	asked, _ := os.ReadFile(log)
	if !strings.Contains(string(asked), "update") || !strings.Contains(string(asked), "install -y chromium") {
		t.Fatalf("apt-get was asked %q, want an update and an install of chromium", asked)
	}
	os.Remove(log)
	if out, err := ciRun(t, t.TempDir(), "install_chromium", "PATH="+bin); err != nil {
		t.Fatalf("install_chromium with chromium present: %v\n%s", err, out)
	}
	if _, err := os.Stat(log); err == nil {
		t.Error("apt-get ran although chromium was there")
	}
}
