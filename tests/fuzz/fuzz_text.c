// SPDX-License-Identifier: MIT
/*
 * fuzz_text.c - fuzz target for strings from the fabric and files made safe
 * to show (mad/model/topo_text.c) and the log that escapes them (sm_log.c).
 *
 * The input's first byte picks an output size, the rest is the string (cut
 * at its first NUL, as a NodeDescription or a line is).  What must hold for
 * any bytes (abort() if not: the finding):
 *  - topo_text_escape(): only printable ASCII comes out (every unsafe
 *    character and every byte outside ASCII is escaped or is a safe UTF-8
 *    character), it never writes past its size, a cut output is a prefix of
 *    the whole one that ends between escapes, and the whole one decodes back
 *    to exactly the input (the escapes are unambiguous);
 *  - topo_text_replace(): valid UTF-8 with no unsafe character, no longer;
 *  - topo_text_token() and topo_text_value(): bounded, and the token only of
 *    its few characters;
 *  - sm_log() of the string: exactly one line in the log file, of printable
 *    ASCII and safe UTF-8 only, whose message decodes back to the input.
 * Built with -fsanitize=fuzzer and -DFUZZ_LIBFUZZER for libFuzzer;
 * otherwise fuzz_main.c replays tests/fuzz/corpus-text once, as a test.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mad/model/topo_text.h"
#include "sm/util/sm_log.h"
#include "tests/fuzz/fuzz.h"

const char fuzz_corpus[] = "corpus-text";

#define FUZZ_TEXT_MAX 4096

static void check(bool ok)
{
	if (!ok)
		abort();
}

/* Every character of @s valid UTF-8, none unsafe. */
static void check_shown(const char *s)
{
	for (const char *p = s; *p;) {
		uint32_t cp;
		unsigned n = topo_utf8_next(p, &cp);
		check(n > 0 && !topo_text_unsafe(cp));
		p += n;
	}
}

static int hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* @s as topo_text_escape() wrote it, decoded into @out; its length, or
 * (size_t)-1 for an escape it never writes. */
static size_t unescape(const char *s, char *out)
{
	size_t n = 0;

	while (*s) {
		if (*s != '\\') {
			out[n++] = *s++;
			continue;
		}
		s++;
		char c = *s++;
		if (c == '\\' || c == 't' || c == 'n' || c == 'r') {
			out[n++] = c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : '\\';
		} else if (c == 'x' && hex(s[0]) >= 0 && hex(s[1]) >= 0) {
			out[n++] = (char)(hex(s[0]) << 4 | hex(s[1]));
			s += 2;
		} else if (c == 'u' && hex(s[0]) >= 0 && hex(s[1]) >= 0 && hex(s[2]) >= 0 &&
			   hex(s[3]) >= 0) {
			uint32_t cp = (uint32_t)(hex(s[0]) << 12 | hex(s[1]) << 8 | hex(s[2]) << 4 |
						 hex(s[3]));
			if (cp < 0x80)
				return (size_t)-1;
			if (cp < 0x800) {
				out[n++] = (char)(0xc0 | cp >> 6);
			} else {
				out[n++] = (char)(0xe0 | cp >> 12);
				out[n++] = (char)(0x80 | (cp >> 6 & 0x3f));
			}
			out[n++] = (char)(0x80 | (cp & 0x3f));
			s += 4;
		} else {
			return (size_t)-1;
		}
	}
	return n;
}

static void check_escape(const char *in, size_t len, size_t size)
{
	static char whole[4 * FUZZ_TEXT_MAX + 1], cut[4 * FUZZ_TEXT_MAX + 16],
		back[FUZZ_TEXT_MAX + 1];

	size_t need = topo_text_escape(whole, sizeof(whole), in);
	check(need == strlen(whole));
	check_shown(whole);
	check(unescape(whole, back) == len && !memcmp(back, in, len));
	/* a cut: within its size, a prefix of the whole, never half an escape
	 * (it decodes) nor half a character (it is valid UTF-8) */
	memset(cut, 0x55, sizeof(cut));
	check(topo_text_escape(cut, size, in) == need);
	size_t got = strlen(cut);
	check(got < size && cut[size] == 0x55 && !memcmp(cut, whole, got));
	check_shown(cut);
	check(unescape(cut, back) != (size_t)-1);
}

/* What sm_log() wrote for @in: one line, safe, decoding back to @in (cut at
 * the 1023 bytes a message holds). */
static void check_log(const char *path, const char *in, size_t len)
{
	static char line[8 * FUZZ_TEXT_MAX], back[FUZZ_TEXT_MAX + 1];

	if (truncate(path, 0))
		abort();
	sm_notice("%s", in);
	FILE *f = fopen(path, "r");
	check(f != NULL);
	size_t n = fread(line, 1, sizeof(line) - 1, f);
	fclose(f);
	line[n] = '\0';
	check(n > 0 && line[n - 1] == '\n' && strchr(line, '\n') == line + n - 1);
	line[n - 1] = '\0';
	check_shown(line);
	const char *msg = strstr(line, " notice: ");
	check(msg != NULL);
	size_t m = unescape(msg + 9, back);
	check(m == (len < 1023 ? len : 1023) && !memcmp(back, in, m));
}

static char path[64];

static void remove_log(void)
{
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char in[FUZZ_TEXT_MAX + 1], tok[TOPO_TEXT_TOKEN_SIZE], val[TOPO_TEXT_VALUE_SIZE];

	if (size == 0)
		return 0;
	if (!path[0]) {	/* one log file for the run */
		snprintf(path, sizeof(path), "/tmp/fuzz_text.%d.log", (int)getpid());
		if (sm_log_open(path, LOG_DEBUG, 0))
			abort();
		atexit(remove_log);
	}
	size_t out = (size_t)data[0] % 96 + 1;
	size_t len = size - 1 < FUZZ_TEXT_MAX ? size - 1 : FUZZ_TEXT_MAX;
	memcpy(in, data + 1, len);
	in[len] = '\0';
	len = strlen(in);
	check_escape(in, len, out);
	check(strlen(topo_text_token(tok, in)) < sizeof(tok));
	for (const char *c = tok; *c && strcmp(c, "..."); c++)
		check((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '_' || *c == '.' || *c == '-');
	check(strlen(topo_text_value(val, in)) < sizeof(val));
	check_shown(val);
	check_log(path, in, len);
	topo_text_replace(in);
	check(strlen(in) <= len);
	check_shown(in);
	return 0;
}
