// SPDX-License-Identifier: MIT
/*
 * fuzz_import_opensm.c - fuzz target: bytes as an OpenSM file given to
 * `ibsmd --import-opensm` (sm_osm_import_stream()).
 *
 * Whatever the bytes, the converter must not crash; when it writes a
 * configuration, ibsmd's own reader (sm_config_parse()) must take it: what
 * --import-opensm prints is always an ibsmd.yaml.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sm/core/sm_config.h"
#include "sm/osm/sm_osm_import.h"
#include "tests/fuzz/fuzz.h"

const char fuzz_corpus[] = "corpus-import-opensm";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *yaml = NULL, err[512];
	size_t len = 0;
	struct sm_config c;

	if (size == 0)
		return 0;
	FILE *in = fmemopen((void *)data, size, "r");
	FILE *out = open_memstream(&yaml, &len);
	FILE *diag = fopen("/dev/null", "w");
	if (!in || !out || !diag)
		abort();
	int rc = sm_osm_import_stream(in, "fuzz.conf", out, diag);
	fclose(in);
	fclose(out);
	fclose(diag);
	if (rc == 0) {
		FILE *back = fmemopen(yaml, len, "r");
		sm_config_defaults(&c);
		if (!back || sm_config_parse(&c, back, "out.yaml", err, sizeof(err))) {
			fprintf(stderr, "the converted file does not read: %s\n%s", err, yaml);
			abort();
		}
		fclose(back);
	} else if (len) {
		abort();	/* an error, yet something written */
	}
	free(yaml);
	return 0;
}
