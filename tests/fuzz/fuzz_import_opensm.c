// SPDX-License-Identifier: MIT
/*
 * fuzz_import_opensm.c - fuzz target: bytes as an OpenSM file given to
 * `ibsmd --import-opensm` (sm_osm_import_stream()), or, when they hold a
 * line "@@", a qos-policy.conf (before it) and the opensm.conf of its qos_*
 * keys (after it) given together (sm_osm_qos_import()).
 *
 * Whatever the bytes, the converter must not crash, and writes nothing when
 * it fails; what it writes, ibsmd's own reader must take: an ibsmd.yaml
 * (sm_config_parse()) from an opensm.conf, a QoS policy
 * (sm_qos_policy_parse()) from a qos-policy.conf.
 */
#define _GNU_SOURCE	/* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/core/sm_config.h"
#include "sm/osm/sm_osm_import.h"
#include "sm/sa/sm_qos.h"
#include "tests/fuzz/fuzz.h"

const char fuzz_corpus[] = "corpus-import-opensm";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *yaml = NULL, err[512] = "";
	size_t len = 0, plen = size;
	struct sm_config c;
	struct sm_qos_policy q;

	if (size == 0)
		return 0;
	const uint8_t *sep = memmem(data, size, "\n@@\n", 4);
	if (sep)
		plen = (size_t)(sep - data) + 1;
	FILE *in = fmemopen((void *)data, plen, "r");
	FILE *conf = sep && size > plen + 3 ? fmemopen((void *)(sep + 4), size - plen - 3, "r")
					   : NULL;
	FILE *out = open_memstream(&yaml, &len);
	FILE *diag = fopen("/dev/null", "w");
	if (!in || !out || !diag || (sep && size > plen + 3 && !conf))
		abort();
	bool qos = sm_osm_qos_is(in);
	int rc = conf ? sm_osm_qos_import(in, "fuzz.conf", conf, "opensm.conf", out, diag)
		      : sm_osm_import_stream(in, "fuzz.conf", out, diag);
	fclose(in);
	if (conf)
		fclose(conf);
	fclose(out);
	fclose(diag);
	if (rc == 0) {
		FILE *back = fmemopen(yaml, len, "r");
		sm_config_defaults(&c);
		if (!back || (qos || conf ? sm_qos_policy_parse(back, "out.yaml", &q, err, sizeof(err))
				    : sm_config_parse(&c, back, "out.yaml", err, sizeof(err)))) {
			fprintf(stderr, "the converted file does not read: %s\n%s", err, yaml);
			abort();
		}
		if (qos || conf)
			sm_qos_policy_free(&q);
		fclose(back);
	} else if (len) {
		abort();	/* an error, yet something written */
	}
	free(yaml);
	return 0;
}
