package bootstrap

import "runtime/debug"

// Version names the build; release builds set it with
// -ldflags "-X github.com/shopstock/inventory/bootstrap.Version=1.2.3".
var Version = ""

// version is Version, or else what the Go toolchain recorded: the module
// version, or the VCS revision of a development build.
func version() string {
	if Version != "" {
		return Version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := info.Main.Version
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && (v == "" || v == "(devel)") {
			v = s.Value
			if len(v) > 12 {
				v = v[:12]
			}
		}
	}
	if v == "" {
		v = "(devel)"
	}
	return v
}
