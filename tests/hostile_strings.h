/* SPDX-License-Identifier: MIT */
/*
 * hostile_strings.h - NodeDescriptions a hostile host sets (each at most the
 * 64 bytes of the attribute), the same as tests/topo/hostile.topo's: screen
 * control (ESC, CSI, OSC 52 to the clipboard, OSC 0 and 8), a line feed that
 * forges a log line, CR, quotes and backslashes, invalid UTF-8, bidi
 * overrides and isolates, line and paragraph separators, C1 controls,
 * </script>, Prometheus label breakers, TAB, DEL and printf directives.
 */
#ifndef IBSMD_TESTS_HOSTILE_STRINGS_H
#define IBSMD_TESTS_HOSTILE_STRINGS_H

static const char *const hostile_strings[] = {
	"\x1b[2J\x1b[3J\x1b[Hscreen cleared",
	"\x1b]52;c;cm0gLXJmIH4K\x07" "clipboard written",
	"\x1b]0;pwned\x07\x1b]8;;http://x/\x07title\x1b]8;;\x07",
	"h4\nFAKE 2026-01-01 00:00:00.000 ibsmd[1] crit: forged",
	"h5\rFAKE carriage return\r\n",
	"say \"hi\" \\ \\\"q\\",
	"bad\xff\xfe\xc0\xaf\xed\xa0\x80 utf8 \xe2\x80",
	"user\u202egnp.exe \u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c",
	"line\u2028sep\u2029para \xc2\x85nel \xc2\x9b" "2J",
	"</script><script>alert(1)</script>",
	"x\"} 1\nibsmd_fake{a=\"b\\\"} 2 # }",
	"tab\there\x7f" "del %s%n%x",
	"&amp;<b>'\"<!--",
	"sw\x1b[31mred\x1b[0m\ttab",
	"sw\u202eltr\nFAKE 2026-01-01 00:00:00.000 ibsmd[1] crit: forged",
};

#define HOSTILE_STRINGS (sizeof(hostile_strings) / sizeof(hostile_strings[0]))

#endif
