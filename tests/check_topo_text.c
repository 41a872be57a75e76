// SPDX-License-Identifier: MIT
/*
 * check_topo_text.c - strings from the fabric and files made safe to show
 * (mad/model/topo_text.c): the UTF-8 decoder at its edges, which characters
 * are unsafe, the log's escapes (every hostile description, cuts that never
 * split an escape), smquery's '?' in place, and the short token an error
 * message may quote of a line that is not what it should be.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "mad/model/topo_text.h"
#include "tests/check_util.h"
#include "tests/hostile_strings.h"

START_TEST(utf8_edges)
{
	uint32_t cp;

	ck_assert_uint_eq(topo_utf8_next("A", &cp), 1);
	ck_assert_uint_eq(cp, 'A');
	ck_assert_uint_eq(topo_utf8_next("\xc2\xa0", &cp), 2);
	ck_assert_uint_eq(cp, 0xa0);
	ck_assert_uint_eq(topo_utf8_next("\xe2\x80\xae", &cp), 3);
	ck_assert_uint_eq(cp, 0x202e);
	ck_assert_uint_eq(topo_utf8_next("\xf4\x8f\xbf\xbf", &cp), 4);
	ck_assert_uint_eq(cp, 0x10ffff);
	ck_assert_uint_eq(topo_utf8_next("\xc0\xaf", &cp), 0);		/* overlong '/' */
	ck_assert_uint_eq(topo_utf8_next("\xe0\x80\xaf", &cp), 0);	/* overlong too */
	ck_assert_uint_eq(topo_utf8_next("\xed\xa0\x80", &cp), 0);	/* a surrogate */
	ck_assert_uint_eq(topo_utf8_next("\xf4\x90\x80\x80", &cp), 0);	/* past U+10FFFF */
	ck_assert_uint_eq(topo_utf8_next("\x80", &cp), 0);		/* continuation */
	ck_assert_uint_eq(topo_utf8_next("\xff", &cp), 0);
	ck_assert_uint_eq(topo_utf8_next("\xe2\x80", &cp), 0);		/* cut by the NUL */
}
END_TEST

START_TEST(unsafe_characters)
{
	static const uint32_t unsafe[] = {
		0x00, 0x09, 0x0a, 0x0d, 0x1b, 0x1f, 0x7f, 0x80, 0x85, 0x9b, 0x9f, 0x061c,
		0x200e, 0x200f, 0x202a, 0x202e, 0x2066, 0x2069, 0x2028, 0x2029,
	};
	static const uint32_t safe[] = {
		' ', '~', '"', '\\', '<', 0xa0, 0xe9, 0x200d, 0x2030, 0x2065, 0x206a, 0x1f600,
	};

	for (size_t i = 0; i < sizeof(unsafe) / sizeof(unsafe[0]); i++)
		ck_assert_msg(topo_text_unsafe(unsafe[i]), "U+%04X", unsafe[i]);
	for (size_t i = 0; i < sizeof(safe) / sizeof(safe[0]); i++)
		ck_assert_msg(!topo_text_unsafe(safe[i]), "U+%04X", safe[i]);
}
END_TEST

static const char *escaped(const char *in)
{
	static char out[512];

	topo_text_escape(out, sizeof(out), in);
	return out;
}

START_TEST(escapes)
{
	ck_assert_str_eq(escaped("plain é ok"), "plain é ok");
	ck_assert_str_eq(escaped("a\tb\nc\rd\\e"), "a\\tb\\nc\\rd\\\\e");
	ck_assert_str_eq(escaped("\x1b]52;c;eA==\x07"), "\\x1b]52;c;eA==\\x07");
	ck_assert_str_eq(escaped("x\x7fy\xc2\x9bz"), "x\\x7fy\\u009bz");
	ck_assert_str_eq(escaped("\xe2\x80\xae\xe2\x81\xa6\xe2\x80\xa8"), "\\u202e\\u2066\\u2028");
	ck_assert_str_eq(escaped("bad\xff\xc0\xaf\xe2\x80"), "bad\\xff\\xc0\\xaf\\xe2\\x80");
	/* every hostile description: printable ASCII only, no line of its own */
	for (size_t i = 0; i < HOSTILE_STRINGS; i++) {
		const char *e = escaped(hostile_strings[i]);
		for (const unsigned char *c = (const unsigned char *)e; *c; c++)
			ck_assert_msg(*c >= 0x20 && *c < 0x7f, "string %zu: byte 0x%02x", i, *c);
	}
}
END_TEST

/* A cut falls before the escape or character that would not fit whole. */
START_TEST(escape_cuts_whole)
{
	char out[8];

	ck_assert_uint_eq(topo_text_escape(out, sizeof(out), "abcde\x1b"), 9);
	ck_assert_str_eq(out, "abcde");
	ck_assert_uint_eq(topo_text_escape(out, sizeof(out), "abcd\n"), 6);
	ck_assert_str_eq(out, "abcd\\n");
	ck_assert_uint_eq(topo_text_escape(out, sizeof(out), "abcdef\xc3\xa9"), 8);
	ck_assert_str_eq(out, "abcdef");
	ck_assert_uint_eq(topo_text_escape(out, sizeof(out), "abcdef\xc3\xa9x"), 9);
	ck_assert_str_eq(out, "abcdef");	/* nothing after a cut */
	ck_assert_uint_eq(topo_text_escape(out, 1, "abc"), 3);
	ck_assert_str_eq(out, "");
}
END_TEST

START_TEST(values)
{
	char v[TOPO_TEXT_VALUE_SIZE], long_one[200];

	ck_assert_str_eq(topo_text_value(v, "mlx5_0:1"), "mlx5_0:1");
	ck_assert_str_eq(topo_text_value(v, "a\x1b[2J\xe2\x80\xae"), "a\\x1b[2J\\u202e");
	memset(long_one, 'x', sizeof(long_one) - 1);
	long_one[sizeof(long_one) - 1] = '\0';
	ck_assert_uint_eq(strlen(topo_text_value(v, long_one)), TOPO_TEXT_VALUE_MAX + 3);
	ck_assert_str_eq(v + TOPO_TEXT_VALUE_MAX, "...");
	long_one[TOPO_TEXT_VALUE_MAX] = '\0';
	ck_assert_str_eq(topo_text_value(v, long_one), long_one);	/* fits: whole */
}
END_TEST

START_TEST(replace_in_place)
{
	char s[128];

	strcpy(s, "a\tb\x1b[2J\xe2\x80\xae" "c\xe2\x80\xa8\xff\xc2\x85" "d é");
	topo_text_replace(s);
	ck_assert_str_eq(s, "a?b?[2J?c???d é");
	for (size_t i = 0; i < HOSTILE_STRINGS; i++) {
		snprintf(s, sizeof(s), "%s", hostile_strings[i]);
		topo_text_replace(s);
		for (const unsigned char *c = (const unsigned char *)s; *c; c++)
			ck_assert_msg(*c >= 0x20 && *c < 0x7f, "string %zu: byte 0x%02x", i, *c);
	}
}
END_TEST

START_TEST(tokens)
{
	char tok[TOPO_TEXT_TOKEN_SIZE];

	ck_assert_str_eq(topo_text_token(tok, "root:$y$j9T$salt$hash:19700:0:99999:7:::"),
			 "root...");
	ck_assert_str_eq(topo_text_token(tok, "sweep.interval"), "sweep.interval");
	ck_assert_str_eq(topo_text_token(tok, "0x0002c90300a1b2c4"), "0x0002c90300a1b2c4");
	ck_assert_str_eq(topo_text_token(tok, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"),
			 "MIIEvQIBADANBgkqhkiG...");
	ck_assert_str_eq(topo_text_token(tok, "\x1b[2J"), "...");
	ck_assert_str_eq(topo_text_token(tok, "$6$salt"), "...");
	ck_assert_str_eq(topo_text_token(tok, ""), "");
	ck_assert_str_eq(topo_text_token(tok, "explode \"S1\""), "explode");
	ck_assert_str_eq(topo_text_token(tok, "word\tnext"), "word");
	ck_assert_uint_eq(strlen(topo_text_token(tok, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")),
			  TOPO_TEXT_TOKEN_SIZE - 1);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("topo_text");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, utf8_edges);
	tcase_add_test(tc, unsafe_characters);
	tcase_add_test(tc, escapes);
	tcase_add_test(tc, escape_cuts_whole);
	tcase_add_test(tc, values);
	tcase_add_test(tc, replace_in_place);
	tcase_add_test(tc, tokens);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)
