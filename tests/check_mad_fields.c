// SPDX-License-Identifier: MIT
/*
 * check_mad_fields.c - the attribute tables' field reader and writer
 * (mad/mad_attr.c, compiled in here to reach its tables) against libibmad's
 * mad_get_field()/mad_set_field() on random payloads and values: every field
 * the tables use reads and writes exactly the bits libibmad does, without
 * going through libibmad.
 */
#include <check.h>
#include <stdlib.h>

#include "mad/mad_attr.c"
#include "tests/check_util.h"

static uint64_t rand64(void)
{
	return (uint64_t)random() << 62 ^ (uint64_t)random() << 31 ^ (uint64_t)random();
}

START_TEST(fields_read_as_libibmad_does)
{
	uint8_t buf[IB_MAD_SIZE] = { 0 };	/* a payload, then zeros: map_decode's copy */

	srandom(1);
	pthread_once(&field_bits_once, locate_all);
	for (unsigned trial = 0; trial < 500; trial++) {
		for (unsigned i = 0; i < SMP_DATA_SIZE; i++)
			buf[i] = (uint8_t)random();
		for (size_t t = 0; t < NELEM(attr_tables); t++)
			for (size_t k = 0; k < attr_tables[t].n; k++) {
				const struct field_map *m = &attr_tables[t].map[k];
				ck_assert_msg(field_bits[m->field].run, "field %d not located",
					      m->field);
				ck_assert_uint_eq(field_get(buf, buf, m), lib_get(buf, m));
			}
	}
}
END_TEST

START_TEST(fields_write_as_libibmad_does)
{
	uint8_t ours[IB_MAD_SIZE] = { 0 }, lib[IB_MAD_SIZE] = { 0 };

	srandom(2);
	pthread_once(&field_bits_once, locate_all);
	for (unsigned trial = 0; trial < 500; trial++) {
		for (unsigned i = 0; i < SMP_DATA_SIZE; i++)
			ours[i] = lib[i] = (uint8_t)random();
		for (size_t t = 0; t < NELEM(attr_tables); t++)
			for (size_t k = 0; k < attr_tables[t].n; k++) {
				const struct field_map *m = &attr_tables[t].map[k];
				uint64_t v = rand64() & field_bits[m->field].mask;
				ck_assert(field_set(ours, m, v));
				if (m->size == 8)
					mad_set_field64(lib, 0, m->field, v);
				else
					mad_set_field(lib, 0, m->field, (uint32_t)v);
				ck_assert_mem_eq(ours, lib, SMP_DATA_SIZE);
			}
	}
}
END_TEST

static Suite *fields_suite(void)
{
	Suite *s = suite_create("fields");
	TCase *tc = tcase_create("fields");

	tcase_add_test(tc, fields_read_as_libibmad_does);
	tcase_add_test(tc, fields_write_as_libibmad_does);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(fields_suite)
