// SPDX-License-Identifier: MIT
/*
 * fuzz_sa.c - fuzz target: bytes from the fabric through the SA MAD decoder
 * and every SA record codec.
 *
 * Whatever the bytes, decoding must not crash, and anything that decodes must
 * survive encode -> decode unchanged, for the header and for each record read
 * from the SA data.
 */
#include <stdlib.h>
#include <string.h>

#include "mad/mad_sa.h"
#include "tests/fuzz/fuzz.h"

const char fuzz_corpus[] = "corpus-sa";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mad_sa sa, back;
	uint8_t wire[MAD_BLOCK_SIZE];

	if (mad_sa_decode(data, size, &sa))
		return 0;
	mad_sa_encode(&sa, wire);
	if (mad_sa_decode(wire, sizeof(wire), &back) || memcmp(&sa, &back, sizeof(sa)))
		abort();
	FUZZ_ROUND_TRIP(struct mad_class_port_info, mad_class_port_info_decode,
		   mad_class_port_info_encode, sa.data);
	FUZZ_ROUND_TRIP(struct mad_sa_node_record, mad_sa_node_record_decode,
		   mad_sa_node_record_encode, sa.data);
	FUZZ_ROUND_TRIP(struct mad_sa_port_info_record, mad_sa_port_info_record_decode,
		   mad_sa_port_info_record_encode, sa.data);
	FUZZ_ROUND_TRIP(struct mad_sa_path_record, mad_sa_path_record_decode,
		   mad_sa_path_record_encode, sa.data);
	return 0;
}
