// SPDX-License-Identifier: MIT
/*
 * fuzz_config.c - fuzz target: bytes as an ibsmd.yaml.
 *
 * Whatever the bytes, sm_config_parse() must not crash, must leave the
 * configuration untouched when it fails (with a message naming the input), and
 * what it accepts must stay within the documented ranges and print
 * (sm_config_write) as text that reads back as the same configuration.  The
 * secret keys print redacted when set (check_sm_config tests that): they are
 * cleared before the round trip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/core/sm_config.h"
#include "tests/fuzz/fuzz.h"

const char fuzz_corpus[] = "corpus-config";

static void round_trip(const struct sm_config *with_secrets)
{
	struct sm_config back, shown = *with_secrets, *c = &shown;
	struct sm_config_change ch[1];
	char *text = NULL, err[512];
	size_t len = 0;

	shown.sm_key = shown.mkey_key = 0;
	memset(shown.mkey_secret, 0, sizeof(shown.mkey_secret));
	FILE *out = open_memstream(&text, &len);
	if (!out || sm_config_write(c, out) || fclose(out))
		abort();
	FILE *in = fmemopen(text, len, "r");
	sm_config_defaults(&back);
	if (!in || sm_config_parse(&back, in, "printed", err, sizeof(err)) ||
	    sm_config_diff(c, &back, ch, 1))
		abort();
	fclose(in);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sm_config c, before;
	char err[512] = "";

	if (size == 0)
		return 0;
	FILE *in = fmemopen((void *)data, size, "r");
	if (!in)
		return 0;
	sm_config_defaults(&c);
	before = c;
	int rc = sm_config_parse(&c, in, "fuzz", err, sizeof(err));
	fclose(in);
	if (rc) {
		if (strncmp(err, "fuzz:", 5) != 0 || memcmp(&c, &before, sizeof(c)))
			abort();
		return 0;
	}
	if (c.window < 1 || c.window > 4096 || c.timeout_ms < 1 || c.timeout_ms > 2000 ||
	    c.lmc > 7 || c.sm_priority > 15 || c.nrouting < 1 ||
	    c.nrouting > SM_MAX_ENGINES || c.nrouting_options > SM_MAX_ROUTING_OPTIONS ||
	    !memchr(c.backend, '\0', sizeof(c.backend)))
		abort();
	round_trip(&c);
	return 0;
}
