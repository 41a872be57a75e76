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

#endif
