// SPDX-License-Identifier: MIT
/*
 * check_mad_fields.c - the attribute tables' field reader and writer
 * (mad/mad_attr.c, compiled in here to reach its tables) against libibmad's
 * mad_get_field()/mad_set_field() on random payloads and values: every field
 * the tables use reads exactly the bits libibmad does, and each table is
 * written as libibmad writes its fields, without going through libibmad.
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

/* A table's fields written into an empty payload, as libibmad writes them one
 * after the other (values within each field's width). */
START_TEST(tables_write_as_libibmad_does)
{
	uint8_t ours[SMP_DATA_SIZE], lib[IB_MAD_SIZE];
	uint64_t obj[64];	/* room for any table's structure */

	srandom(2);
	pthread_once(&field_bits_once, locate_all);
	for (unsigned trial = 0; trial < 500; trial++)
		for (size_t t = 0; t < NELEM(attr_tables); t++) {
			const struct field_map *map = attr_tables[t].map;
			memset(lib, 0, sizeof(lib));
			for (size_t k = 0; k < attr_tables[t].n; k++) {
				const struct field_map *m = &map[k];
				uint64_t v = rand64() & field_bits[m->field].mask;
				ck_assert_uint_le(m->offset + m->size, sizeof(obj));
				memcpy((uint8_t *)obj + m->offset, &v, m->size);	/* little-endian */
				if (m->size == 8)
					mad_set_field64(lib, 0, m->field, v);
				else
					mad_set_field(lib, 0, m->field, (uint32_t)v);
			}
			memset(ours, 0xa5, sizeof(ours));
			map_encode(obj, ours, map, attr_tables[t].n);
			ck_assert_mem_eq(ours, lib, SMP_DATA_SIZE);
		}
}
END_TEST

static Suite *fields_suite(void)
{
	Suite *s = suite_create("fields");
	TCase *tc = tcase_create("fields");

	tcase_add_test(tc, fields_read_as_libibmad_does);
	tcase_add_test(tc, tables_write_as_libibmad_does);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(fields_suite)
