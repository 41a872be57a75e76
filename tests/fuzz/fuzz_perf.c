// SPDX-License-Identifier: MIT
/*
 * fuzz_perf.c - fuzz target: bytes from the fabric through the PerfMgt MAD
 * decoder and its attribute codecs (PortCounters, PortCountersExtended,
 * ClassPortInfo).
 *
 * Whatever the bytes, decoding must not crash, and anything that decodes must
 * survive encode -> decode unchanged, for the header and each attribute read
 * from the PerfMgt data.
 */
#include <stdlib.h>
#include <string.h>

#include "mad/mad_perf.h"
#include "tests/fuzz/fuzz.h"

const char fuzz_corpus[] = "corpus-perf";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mad_perf pm, back;
	uint8_t wire[MAD_BLOCK_SIZE];

	if (mad_perf_decode(data, size, &pm))
		return 0;
	mad_perf_encode(&pm, wire);
	if (mad_perf_decode(wire, sizeof(wire), &back) || memcmp(&pm, &back, sizeof(pm)))
		abort();
	FUZZ_ROUND_TRIP(struct mad_port_counters, mad_port_counters_decode,
		   mad_port_counters_encode, pm.data);
	FUZZ_ROUND_TRIP(struct mad_port_counters_ext, mad_port_counters_ext_decode,
		   mad_port_counters_ext_encode, pm.data);
	FUZZ_ROUND_TRIP(struct mad_class_port_info, mad_class_port_info_decode,
		   mad_class_port_info_encode, pm.data);
	return 0;
}
