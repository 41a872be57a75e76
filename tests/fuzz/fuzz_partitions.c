// SPDX-License-Identifier: MIT
/*
 * fuzz_partitions.c - fuzz target: bytes as a partitions file, either format
 * (sm_partitions_parse() tells YAML from OpenSM's); judged by
 * fuzz_partitions.h.
 */
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/fuzz_partitions.h"

const char fuzz_corpus[] = "corpus-partitions";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_partitions_run(sm_partitions_parse, data, size);
}
