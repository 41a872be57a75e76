// SPDX-License-Identifier: MIT
/*
 * fuzz_cc.c - fuzz target: bytes from the fabric through the congestion
 * control MAD decoder and every attribute codec of mad_cc.h.
 *
 * Whatever the bytes, decoding must not crash, and anything that decodes must
 * survive encode -> decode unchanged, for the header (its CC_Key too) and
 * each attribute read from the CC data.
 */
#include <stdlib.h>
#include <string.h>

#include "mad/mad_cc.h"
#include "tests/fuzz/fuzz.h"

const char fuzz_corpus[] = "corpus-cc";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mad_cc cc, back;
	uint8_t wire[MAD_BLOCK_SIZE];

	if (mad_cc_decode(data, size, &cc))
		return 0;
	mad_cc_encode(&cc, wire);
	if (mad_cc_decode(wire, sizeof(wire), &back) || memcmp(&cc, &back, sizeof(cc)))
		abort();
	FUZZ_ROUND_TRIP(struct mad_cc_info, mad_cc_info_decode, mad_cc_info_encode, cc.data);
	FUZZ_ROUND_TRIP(struct mad_cc_key_info, mad_cc_key_info_decode, mad_cc_key_info_encode,
			cc.data);
	FUZZ_ROUND_TRIP(struct mad_cc_switch_setting, mad_cc_switch_setting_decode,
			mad_cc_switch_setting_encode, cc.data);
	FUZZ_ROUND_TRIP(struct mad_cc_switch_port_setting, mad_cc_switch_port_setting_decode,
			mad_cc_switch_port_setting_encode, cc.data);
	FUZZ_ROUND_TRIP(struct mad_cc_ca_setting, mad_cc_ca_setting_decode,
			mad_cc_ca_setting_encode, cc.data);
	FUZZ_ROUND_TRIP(struct mad_cc_cct, mad_cc_cct_decode, mad_cc_cct_encode, cc.data);
	return 0;
}
