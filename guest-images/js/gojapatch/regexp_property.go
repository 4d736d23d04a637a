//go:build ignore

// Copied into goja's parser by patch-goja-regexp.py (without this
// build line): it is not part of the guest's own package.

package parser

// Unicode property escapes (\p{…}, \P{…}) in regular expressions with the
// u flag, added to goja by wasmexec's build (patch-goja-regexp.py): goja
// read \p{L} as the letter p followed by {L}, so such a pattern compiled
// and silently never matched. re2 knows general categories and scripts;
// the binary properties Go's unicode package has are spelled out as
// ranges; anything else (Emoji, Extended_Pictographic) is an error, as in
// an engine without the property.

import (
	"fmt"
	"strings"
	"unicode"
)

var generalCategories = map[string]string{
	"Letter": "L", "Cased_Letter": "LC", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll",
	"Titlecase_Letter": "Lt", "Modifier_Letter": "Lm", "Other_Letter": "Lo",
	"Mark": "M", "Combining_Mark": "M", "Nonspacing_Mark": "Mn", "Spacing_Mark": "Mc", "Enclosing_Mark": "Me",
	"Number": "N", "Decimal_Number": "Nd", "digit": "Nd", "Letter_Number": "Nl", "Other_Number": "No",
	"Punctuation": "P", "punct": "P", "Connector_Punctuation": "Pc", "Dash_Punctuation": "Pd",
	"Open_Punctuation": "Ps", "Close_Punctuation": "Pe", "Initial_Punctuation": "Pi",
	"Final_Punctuation": "Pf", "Other_Punctuation": "Po",
	"Symbol": "S", "Math_Symbol": "Sm", "Currency_Symbol": "Sc", "Modifier_Symbol": "Sk", "Other_Symbol": "So",
	"Separator": "Z", "Space_Separator": "Zs", "Line_Separator": "Zl", "Paragraph_Separator": "Zp",
	"Other": "C", "Control": "Cc", "cntrl": "Cc", "Format": "Cf", "Surrogate": "Cs", "Private_Use": "Co",
}

// categoryParts is a general category (short or long name) as re2 class
// parts, or nil.
func categoryParts(name string) []string {
	if short, ok := generalCategories[name]; ok {
		name = short
	}
	if name == "LC" {
		return []string{`\p{Lu}`, `\p{Ll}`, `\p{Lt}`}
	}
	if _, ok := unicode.Categories[name]; ok {
		return []string{`\p{` + name + `}`}
	}
	return nil
}

// tableParts spells a range table out as class ranges.
func tableParts(tables ...*unicode.RangeTable) []string {
	var parts []string
	for _, t := range tables {
		for _, r := range t.R16 {
			for lo := rune(r.Lo); lo <= rune(r.Hi); lo += rune(r.Stride) {
				hi := lo
				if r.Stride == 1 {
					hi = rune(r.Hi)
				}
				parts = append(parts, fmt.Sprintf(`\x{%x}-\x{%x}`, lo, hi))
				if r.Stride == 1 {
					break
				}
			}
		}
		for _, r := range t.R32 {
			for lo := rune(r.Lo); lo <= rune(r.Hi); lo += rune(r.Stride) {
				hi := lo
				if r.Stride == 1 {
					hi = rune(r.Hi)
				}
				parts = append(parts, fmt.Sprintf(`\x{%x}-\x{%x}`, lo, hi))
				if r.Stride == 1 {
					break
				}
			}
		}
	}
	return parts
}

// binaryParts is a binary property as class parts, or nil.
func binaryParts(name string) []string {
	switch name {
	case "Any":
		return []string{`\x{0}-\x{10ffff}`}
	case "ASCII":
		return []string{`\x{0}-\x{7f}`}
	case "Alphabetic", "Alpha":
		return append([]string{`\p{L}`, `\p{Nl}`}, tableParts(unicode.Other_Alphabetic)...)
	case "Lowercase", "Lower":
		return append([]string{`\p{Ll}`}, tableParts(unicode.Other_Lowercase)...)
	case "Uppercase", "Upper":
		return append([]string{`\p{Lu}`}, tableParts(unicode.Other_Uppercase)...)
	}
	if t, ok := unicode.Properties[name]; ok {
		return tableParts(t)
	}
	return nil
}

// unicodeProperty is \p{name} (\P{name} when neg) in re2 syntax, for use
// inside a class or outside one, or false when it can't be written.
func unicodeProperty(name string, neg, inClass bool) (string, bool) {
	var parts []string
	if key, value, ok := strings.Cut(name, "="); ok {
		switch key {
		case "General_Category", "gc":
			parts = categoryParts(value)
		case "Script", "sc", "Script_Extensions", "scx":
			if _, ok := unicode.Scripts[value]; ok {
				parts = []string{`\p{` + value + `}`}
			}
		}
	} else if parts = categoryParts(name); parts == nil {
		parts = binaryParts(name)
	}
	if parts == nil {
		return "", false
	}
	if len(parts) == 1 && strings.HasPrefix(parts[0], `\p{`) {
		if neg {
			return `\P` + parts[0][2:], true
		}
		return parts[0], true
	}
	if inClass {
		if neg {
			return "", false
		}
		return strings.Join(parts, ""), true
	}
	if neg {
		return "[^" + strings.Join(parts, "") + "]", true
	}
	return "[" + strings.Join(parts, "") + "]", true
}

// scanProperty reads {name} after \p or \P (self.chr is the p) and writes
// the class.
func (self *_RegExp_parser) scanProperty(inClass bool) {
	neg := self.chr == 'P'
	self.read()
	if self.chr != '{' {
		self.error(true, "Invalid property name")
		return
	}
	start := self.offset
	for self.chr != '}' {
		if self.chr == -1 {
			self.error(true, "Invalid property name")
			return
		}
		self.read()
	}
	name := self.str[start:self.chrOffset]
	self.read()
	class, ok := unicodeProperty(name, neg, inClass)
	if !ok {
		self.error(true, "Invalid property name \\p{%s}", name)
		return
	}
	self.writeString(class)
}
