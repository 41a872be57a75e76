// SPDX-License-Identifier: MIT
/*
 * fuzz_mad.c - fuzz target: bytes from the fabric through the SMP decoder and
 * every attribute codec (the AR vendor ones of mad_ar.h too).
 *
 * Whatever the bytes, decoding must not crash, and anything that decodes must
 * survive encode -> decode unchanged (the codecs agree with each other).
 */
#include <stdlib.h>
#include <string.h>

#include "mad/mad_ar.h"
#include "mad/mad_attr.h"
#include "tests/fuzz/fuzz.h"

const char fuzz_corpus[] = "corpus-mad";

#define ROUND_TRIP(type, decode, encode, data)                          \
	do {                                                            \
		type a, b;                                              \
		uint8_t again[SMP_DATA_SIZE];                           \
		memset(&a, 0, sizeof(a));                               \
		memset(&b, 0, sizeof(b));                               \
		if (decode(data, &a) == 0) {                            \
			encode(&a, again);                              \
			if (decode(again, &b) != 0 || memcmp(&a, &b, sizeof(a))) \
				abort();                                \
		}                                                       \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mad_smp smp, back;
	uint8_t wire[MAD_BLOCK_SIZE];

	if (mad_smp_decode(data, size, &smp))
		return 0;
	mad_smp_encode(&smp, wire);
	if (mad_smp_decode(wire, sizeof(wire), &back) || memcmp(&smp, &back, sizeof(smp)))
		abort();
	ROUND_TRIP(struct mad_node_info, mad_node_info_decode, mad_node_info_encode, smp.data);
	ROUND_TRIP(struct mad_port_info, mad_port_info_decode, mad_port_info_encode, smp.data);
	ROUND_TRIP(struct mad_switch_info, mad_switch_info_decode, mad_switch_info_encode, smp.data);
	ROUND_TRIP(struct mad_sm_info, mad_sm_info_decode, mad_sm_info_encode, smp.data);
	ROUND_TRIP(struct mad_notice, mad_notice_decode, mad_notice_encode, smp.data);
	ROUND_TRIP(struct mad_node_desc, mad_node_desc_decode, mad_node_desc_encode, smp.data);
	ROUND_TRIP(struct mad_pkey_block, mad_pkey_decode, mad_pkey_encode, smp.data);
	ROUND_TRIP(struct mad_lft_block, mad_lft_decode, mad_lft_encode, smp.data);
	ROUND_TRIP(struct mad_sl2vl, mad_sl2vl_decode, mad_sl2vl_encode, smp.data);
	ROUND_TRIP(struct mad_ar_info, mad_ar_info_decode, mad_ar_info_encode, smp.data);
	ROUND_TRIP(struct mad_ar_group_block, mad_ar_group_decode, mad_ar_group_encode, smp.data);
	ROUND_TRIP(struct mad_ar_lft_block, mad_ar_lft_decode, mad_ar_lft_encode, smp.data);
	return 0;
}
