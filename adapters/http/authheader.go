package http

import (
	"net/http"
	"strings"
)

// The parsers of the Authorization header. They see attacker-controlled
// bytes first, so they bound everything and never panic (see the fuzz
// tests); what they return is checked again before anything is looked up.

// maxCredentials bounds a credentials header; no legitimate one is longer.
const maxCredentials = 4096

// basicCredentials reads `Basic base64(name:key)` as net/http does; a
// header beyond maxCredentials, or one without a name, holds none.
func basicCredentials(r *http.Request) (name, key string, ok bool) {
	if len(r.Header.Get("Authorization")) > maxCredentials {
		return "", "", false
	}
	name, key, ok = r.BasicAuth()
	if !ok || name == "" {
		return "", "", false
	}
	return name, key, true
}

// parseDigest reads `Digest k=v, k="v", …` (RFC 7616 section 3.4) into its
// parameters, names lower-cased. A repeated parameter, a token or quoted
// string that does not end, or anything that is not an auth-param list
// fails the whole header.
func parseDigest(header string) (map[string]string, bool) {
	scheme, rest, found := strings.Cut(header, " ")
	if !found || !strings.EqualFold(scheme, "Digest") || len(header) > maxCredentials {
		return nil, false
	}
	params := map[string]string{}
	s := rest
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			break
		}
		i := 0
		for i < len(s) && isTokenChar(s[i]) {
			i++
		}
		if i == 0 {
			return nil, false
		}
		name := strings.ToLower(s[:i])
		s = strings.TrimLeft(s[i:], " \t")
		if !strings.HasPrefix(s, "=") {
			return nil, false
		}
		s = strings.TrimLeft(s[1:], " \t")
		var value string
		if strings.HasPrefix(s, `"`) {
			var b strings.Builder
			j, closed := 1, false
			for j < len(s) {
				c := s[j]
				if c == '\\' && j+1 < len(s) {
					b.WriteByte(s[j+1])
					j += 2
					continue
				}
				if c == '"' {
					closed = true
					j++
					break
				}
				b.WriteByte(c)
				j++
			}
			if !closed {
				return nil, false
			}
			value, s = b.String(), s[j:]
		} else {
			j := 0
			for j < len(s) && isTokenChar(s[j]) {
				j++
			}
			if j == 0 {
				return nil, false
			}
			value, s = s[:j], s[j:]
		}
		if _, dup := params[name]; dup {
			return nil, false
		}
		params[name] = value
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			break
		}
		if s[0] != ',' {
			return nil, false
		}
		s = s[1:]
	}
	if len(params) == 0 {
		return nil, false
	}
	return params, true
}

// isTokenChar tells whether c may appear in an RFC 9110 token.
func isTokenChar(c byte) bool {
	if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// visibleASCII tells whether s is 1..max visible ASCII characters.
func visibleASCII(s string, max int) bool {
	if len(s) == 0 || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// isHex tells whether s is exactly n hexadecimal digits.
func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
