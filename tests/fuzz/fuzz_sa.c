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
#include "mad/mad_sa_mcmember.h"
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
	FUZZ_ROUND_TRIP(struct mad_sa_sl2vl_record, mad_sa_sl2vl_record_decode,
			mad_sa_sl2vl_record_encode, sa.data);
	FUZZ_ROUND_TRIP(struct mad_sa_switch_info_record, mad_sa_switch_info_record_decode,
			mad_sa_switch_info_record_encode, sa.data);
	FUZZ_ROUND_TRIP(struct mad_sa_lft_record, mad_sa_lft_record_decode,
			mad_sa_lft_record_encode, sa.data);
	FUZZ_ROUND_TRIP(struct mad_sa_mft_record, mad_sa_mft_record_decode,
			mad_sa_mft_record_encode, sa.data);
	FUZZ_ROUND_TRIP(struct mad_sa_sm_info_record, mad_sa_sm_info_record_decode,
			mad_sa_sm_info_record_encode, sa.data);
	FUZZ_ROUND_TRIP(struct mad_sa_link_record, mad_sa_link_record_decode,
			mad_sa_link_record_encode, sa.data);
	FUZZ_ROUND_TRIP(struct mad_sa_guid_info_record, mad_sa_guid_info_record_decode,
			mad_sa_guid_info_record_encode, sa.data);
	FUZZ_ROUND_TRIP(struct mad_sa_pkey_table_record, mad_sa_pkey_table_record_decode,
			mad_sa_pkey_table_record_encode, sa.data);
	FUZZ_ROUND_TRIP(struct mad_sa_service_record, mad_sa_service_record_decode,
			mad_sa_service_record_encode, sa.data);
	FUZZ_ROUND_TRIP(struct mad_sa_inform_info, mad_sa_inform_info_decode,
			mad_sa_inform_info_encode, sa.data);
	FUZZ_ROUND_TRIP(struct mad_sa_notice, mad_sa_notice_decode, mad_sa_notice_encode,
			sa.data);
	FUZZ_ROUND_TRIP(struct mad_sa_mcmember_record, mad_sa_mcmember_record_decode,
			mad_sa_mcmember_record_encode, sa.data);
	FUZZ_ROUND_TRIP(struct mad_sa_inform_info_record, mad_sa_inform_info_record_decode,
			mad_sa_inform_info_record_encode, sa.data);
	struct mad_sa_multipath_record mp, mp2;	/* its GIDs as long as the counts say */
	uint8_t mpw[MAD_SA_DATA_SIZE];
	mad_sa_multipath_record_decode(sa.data, sizeof(sa.data), &mp);
	mad_sa_multipath_record_encode(&mp, mpw, sizeof(mpw));
	mad_sa_multipath_record_decode(mpw, sizeof(mpw), &mp2);
	if (memcmp(&mp, &mp2, sizeof(mp)))
		abort();
	return 0;
}
