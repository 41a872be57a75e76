// SPDX-License-Identifier: MIT
/*
 * check_smq_lz.c - the packing of LFTs in the map page (smq_map_lz.c):
 * unpacked (by this file's reading of the format, as the page's script reads
 * it) every input comes back whole; a fat tree's periodic table packs to a
 * few per cent; and no input, random or built to tempt the packer into
 * matches that cost more than they save, grows past SMQ_LZ_BOUND.  Base64
 * against RFC 4648's test vectors.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sm/smquery/smq_map.h"
#include "tests/check_util.h"

static size_t varint(const uint8_t *p, size_t *i)
{
	size_t v = 0;
	unsigned shift = 0;

	for (;;) {
		uint8_t b = p[(*i)++];
		v |= (size_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
		shift += 7;
	}
}

static uint8_t *unpack(const uint8_t *p, size_t len, size_t n)
{
	uint8_t *out = malloc(n + 1);
	size_t i = 0, o = 0;

	ck_assert_ptr_nonnull(out);
	while (i < len) {
		uint8_t t = p[i++];
		if (t < 0x80) {
			ck_assert_uint_le(o + t + 1u, n);
			memcpy(out + o, p + i, t + 1u);
			i += t + 1u;
			o += t + 1u;
			continue;
		}
		size_t l = (t & 0x7fu) + 3;
		if ((t & 0x7f) == 0x7f)
			l += varint(p, &i);
		size_t d = varint(p, &i);
		ck_assert_uint_ge(d, 1);
		ck_assert_uint_le(d, o);
		ck_assert_uint_le(o + l, n);
		for (size_t k = 0; k < l; k++, o++)
			out[o] = out[o - d];
	}
	ck_assert_uint_eq(i, len);
	ck_assert_uint_eq(o, n);
	return out;
}

/* Pack @in, check the bound and the round trip; the packed length. */
static size_t round_trip(const uint8_t *in, size_t n)
{
	uint8_t *packed;
	size_t len;

	ck_assert_int_eq(smq_lz_pack(in, n, &packed, &len), 0);
	ck_assert_uint_le(len, SMQ_LZ_BOUND(n));
	uint8_t *back = unpack(packed, len, n);
	ck_assert(n == 0 || memcmp(back, in, n) == 0);
	free(back);
	free(packed);
	return len;
}

START_TEST(short_inputs)
{
	static const uint8_t in[] = { 1, 1, 1, 1, 2 };

	for (size_t n = 0; n <= sizeof(in); n++)
		round_trip(in, n);
}
END_TEST

START_TEST(fat_tree_table_packs_small)
{
	size_t n = 30529;	/* LIDs 0 .. 30528 of the 27,648-host tree */
	uint8_t *lft = malloc(n);

	ck_assert_ptr_nonnull(lft);
	for (size_t lid = 0; lid < n; lid++)
		lft[lid] = lid < 24 ? (uint8_t)(lid + 1) : (uint8_t)(25 + lid % 24);
	ck_assert_uint_lt(round_trip(lft, n), n / 100);
	memset(lft, 7, n);	/* one long run: the length's varint */
	ck_assert_uint_lt(round_trip(lft, n), 16);
	free(lft);
}
END_TEST

START_TEST(random_and_tempting_inputs_stay_bounded)
{
	size_t n = 49152;	/* every unicast LID */
	uint8_t *in = malloc(n);

	ck_assert_ptr_nonnull(in);
	srand(7);
	for (size_t i = 0; i < n; i++)
		in[i] = (uint8_t)(rand() % 48);
	round_trip(in, n);
	/* 3-byte repeats far back, one literal between: a match of 3 at a
	 * distance past 127 would cost 3 bytes, and its literal 2 more */
	for (size_t i = 20000; i + 4 <= n; i += 4) {
		memcpy(in + i, in + (i - 20000), 3);
		in[i + 3] = (uint8_t)(100 + rand() % 100);
	}
	round_trip(in, n);
	for (size_t i = 0; i < n; i++)
		in[i] = (uint8_t)rand();
	round_trip(in, n);
	free(in);
}
END_TEST

START_TEST(base64_rfc4648_vectors)
{
	static const char *const want[] = { "", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==",
					    "Zm9vYmE=", "Zm9vYmFy" };
	char buf[32];

	for (size_t n = 0; n < 7; n++) {
		memset(buf, 0, sizeof(buf));
		FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

		ck_assert_ptr_nonnull(f);
		smq_base64(f, (const uint8_t *)"foobar", n);
		fclose(f);
		ck_assert_str_eq(buf, want[n]);
	}
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("smq_lz");
	TCase *tc = tcase_create("pack");

	tcase_add_test(tc, short_inputs);
	tcase_add_test(tc, fat_tree_table_packs_small);
	tcase_add_test(tc, random_and_tempting_inputs_stay_bounded);
	tcase_add_test(tc, base64_rfc4648_vectors);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)
