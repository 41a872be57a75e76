/* SPDX-License-Identifier: MIT */
/*
 * fuzz.h - what a fuzz target provides to fuzz_main.c (and to libFuzzer).
 */
#ifndef IBSMD_TESTS_FUZZ_H
#define IBSMD_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The seed corpus directory under tests/fuzz/. */
extern const char fuzz_corpus[];

/* A record codec pair must round-trip: decode @data into a @type, encode it,
 * decode that again, and get the same (abort() if not: the finding).  Records
 * of up to 256 bytes (a MAD). */
#define FUZZ_ROUND_TRIP(type, decode, encode, data)                     \
	do {                                                            \
		type a_, b_;                                            \
		uint8_t again_[256];                                    \
		memset(&a_, 0, sizeof(a_));                             \
		memset(&b_, 0, sizeof(b_));                             \
		decode(data, &a_);                                      \
		encode(&a_, again_);                                    \
		decode(again_, &b_);                                    \
		if (memcmp(&a_, &b_, sizeof(a_)))                       \
			abort();                                        \
	} while (0)

#endif
