// SPDX-License-Identifier: MIT
/*
 * fuzz_partitions_osm.c - fuzz target: bytes as OpenSM's partitions.conf
 * (sm_partitions_parse_osm(), whatever the first line looks like); judged by
 * fuzz_partitions.h.
 */
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/fuzz_partitions.h"

const char fuzz_corpus[] = "corpus-partitions-osm";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_partitions_run(sm_partitions_parse_osm, data, size);
}
