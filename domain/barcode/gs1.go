package barcode

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// ElementString is what a GS1 element string says about a trade item, as
// far as receiving goods cares; other application identifiers (AIs) are
// read past and left out.
type ElementString struct {
	// GTIN is AI 01.
	GTIN GTIN
	// Lot is AI 10, "" when the string has none.
	Lot string
	// BestBefore is AI 17 (expiration date), else AI 15 (best before
	// date), at midnight UTC; the zero time when the string has neither.
	BestBefore time.Time
}

// groupSeparator ends a variable-length field in a raw element string
// (FNC1 as a scanner transmits it, ASCII 29).
const groupSeparator = '\x1d'

// GroupSeparator is the character a scanner sends for the GS1 group
// separator inside a scanned code: a field that takes scans accepts it.
const GroupSeparator = groupSeparator

// groupSeparatorSpellings are what scanners send for the group separator
// when a keyboard cannot type ASCII 29: the Unicode picture of it, and the
// replacement texts scanners are commonly set up to send. None of them can
// occur in a field's data (GS1 character set 82).
var groupSeparatorSpellings = []string{"\u241d", "<GS>", "{GS}", "^]"}

// fixedLengths are the element lengths (AI and data) of the AIs whose first
// two digits GS1 predefines as fixed-length (General Specifications, figure
// 7.8.5-2): those need no separator after them. Every other field runs to
// the next group separator or the end.
var fixedLengths = map[string]int{
	"00": 20, "01": 16, "02": 16, "03": 16, "04": 18,
	"11": 8, "12": 8, "13": 8, "14": 8, "15": 8, "16": 8, "17": 8, "18": 8, "19": 8,
	"20": 4, "31": 10, "32": 10, "33": 10, "34": 10, "35": 10, "36": 10, "41": 16,
}

// maxLot is the longest AI 10.
const maxLot = 20

// set82 is the GS1 AI encodable character set 82, what AI 10 may hold.
const set82 = `!"%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz`

// ParseElementString reads a GS1 element string, either human-readable
// with the AIs in brackets, "(01)04006381333931(17)261231(10)AB-12", or raw
// as a scanner sends it, "010400638133393117261231" "10AB-12", with a group
// separator after each variable-length field that is not the last (and
// possibly one in front, for FNC1 in first position). today resolves the
// century of the dates (General Specifications 7.12) and is all it uses
// of the clock.
func ParseElementString(s string, today time.Time) (ElementString, error) {
	var fields [][2]string
	var err error
	if strings.HasPrefix(s, "(") {
		fields, err = bracketedFields(s)
	} else {
		fields, err = rawFields(normalizeSeparators(s))
	}
	if err != nil {
		return ElementString{}, err
	}
	var out ElementString
	var date15, date17 time.Time
	seen := map[string]bool{}
	for _, f := range fields {
		ai, data := f[0], f[1]
		if seen[ai] {
			return ElementString{}, fmt.Errorf("AI (%s) appears twice", ai)
		}
		seen[ai] = true
		switch ai {
		case "01":
			g, err := ParseGTIN(data)
			if err != nil || len(data) != 14 {
				return ElementString{}, fmt.Errorf("AI (01) must be a GTIN of 14 digits with the right check digit, not %q", data)
			}
			out.GTIN = g
		case "10":
			if data == "" || len(data) > maxLot || strings.Trim(data, set82) != "" {
				return ElementString{}, fmt.Errorf("AI (10) must be a lot number of 1 to %d characters of GS1 character set 82, not %q", maxLot, data)
			}
			out.Lot = data
		case "15", "17":
			d, err := parseDate(data, today)
			if err != nil {
				return ElementString{}, fmt.Errorf("AI (%s) %w", ai, err)
			}
			if ai == "15" {
				date15 = d
			} else {
				date17 = d
			}
		}
	}
	if out.GTIN == "" {
		return ElementString{}, errors.New("the element string carries no GTIN (AI 01)")
	}
	out.BestBefore = date17
	if out.BestBefore.IsZero() {
		out.BestBefore = date15
	}
	return out, nil
}

// normalizeSeparators spells every group separator as ASCII 29.
func normalizeSeparators(s string) string {
	for _, alt := range groupSeparatorSpellings {
		s = strings.ReplaceAll(s, alt, string(groupSeparator))
	}
	return s
}

// bracketedFields splits "(AI)data(AI)data…". A field's data runs to the
// next "(" that opens an AI, two to four digits and ")".
func bracketedFields(s string) ([][2]string, error) {
	var out [][2]string
	for s != "" {
		ai, rest, ok := openingAI(s)
		if !ok {
			return nil, fmt.Errorf("expected an AI in brackets at %q", s)
		}
		end := len(rest)
		for i := 0; i < len(rest); i++ {
			if _, _, ok := openingAI(rest[i:]); ok {
				end = i
				break
			}
		}
		data := rest[:end]
		if n, fixed := fixedLengths[ai[:2]]; fixed && len(ai)+len(data) != n {
			return nil, fmt.Errorf("AI (%s) must have %d characters of data, not %q", ai, n-len(ai), data)
		}
		out = append(out, [2]string{ai, data})
		s = rest[end:]
	}
	return out, nil
}

// openingAI reads "(AI)" at the start of s.
func openingAI(s string) (ai, rest string, ok bool) {
	if !strings.HasPrefix(s, "(") {
		return "", "", false
	}
	end := strings.IndexByte(s, ')')
	if end < 3 || end > 5 || !allDigits(s[1:end]) {
		return "", "", false
	}
	return s[1:end], s[end+1:], true
}

// rawFields splits a raw element string by the predefined lengths and the
// group separators. Only the AIs this package reads are split into AI and
// data; the others are kept whole under their first two digits, which is
// enough to read past them.
func rawFields(s string) ([][2]string, error) {
	s = strings.TrimPrefix(s, string(groupSeparator))
	var out [][2]string
	for s != "" {
		if len(s) < 2 || !allDigits(s[:2]) {
			return nil, fmt.Errorf("expected an AI at %q", s)
		}
		var element string
		if n, fixed := fixedLengths[s[:2]]; fixed {
			if len(s) < n || strings.IndexByte(s[:n], groupSeparator) >= 0 {
				return nil, fmt.Errorf("AI (%s) must have %d characters of data", s[:2], n-2)
			}
			element, s = s[:n], s[n:]
			// Some printers end fixed-length fields with a separator too.
			s = strings.TrimPrefix(s, string(groupSeparator))
		} else {
			end := strings.IndexByte(s, groupSeparator)
			if end < 0 {
				element, s = s, ""
			} else {
				element, s = s[:end], s[end+1:]
			}
		}
		ai := element[:2]
		switch ai {
		case "01", "10", "15", "17":
		default:
			// An AI of three or four digits, or one this package does
			// not read: its data does not matter, only where it ends.
			ai = element
		}
		out = append(out, [2]string{ai, element[len(ai):]})
	}
	return out, nil
}

// parseDate reads YYMMDD: the century by the sliding window of the General
// Specifications (7.12), day 00 the month's last day.
func parseDate(s string, today time.Time) (time.Time, error) {
	if len(s) != 6 || !allDigits(s) {
		return time.Time{}, fmt.Errorf("must be a date YYMMDD, not %q", s)
	}
	yy := int(s[0]-'0')*10 + int(s[1]-'0')
	month := time.Month(int(s[2]-'0')*10 + int(s[3]-'0'))
	day := int(s[4]-'0')*10 + int(s[5]-'0')
	current := today.UTC().Year()
	year := current/100*100 + yy
	switch diff := yy - current%100; {
	case diff >= 51:
		year -= 100
	case diff <= -50:
		year += 100
	}
	if month < 1 || month > 12 {
		return time.Time{}, fmt.Errorf("must be a date YYMMDD, not %q (month %02d)", s, month)
	}
	last := time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC).Day()
	if day == 0 {
		day = last
	}
	if day > last {
		return time.Time{}, fmt.Errorf("must be a date YYMMDD, not %q (%s has %d days)", s, month, last)
	}
	return time.Date(year, month, day, 0, 0, 0, 0, time.UTC), nil
}
