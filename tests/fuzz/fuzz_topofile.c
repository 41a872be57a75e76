// SPDX-License-Identifier: MIT
/*
 * fuzz_topofile.c - fuzz target for the topology reader.
 *
 * LLVMFuzzerTestOneInput() feeds arbitrary bytes to topofile_parse() through
 * fmemopen and checks what must hold either way: on success a consistent topo
 * (links symmetric, ports in range); on failure an error message naming the
 * input and an empty topo.  Built with -fsanitize=fuzzer and
 * -DFUZZ_LIBFUZZER for libFuzzer; otherwise fuzz_main.c replays
 * tests/fuzz/corpus-topofile once, as a test.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/model/topofile.h"
#include "tests/fuzz/fuzz.h"

const char fuzz_corpus[] = "corpus-topofile";

static void fuzz_check_topo(const struct topo *t)
{
	for (uint32_t i = 0; i < t->n; i++) {
		const struct topo_node *n = &t->nodes[i];
		for (unsigned p = 1; p <= n->nports; p++) {
			const struct topo_port *tp = &n->ports[p];
			if (tp->peer == TOPO_NONE)
				continue;
			if (tp->peer >= t->n || tp->peer_port == 0 ||
			    tp->peer_port > t->nodes[tp->peer].nports)
				abort();
			const struct topo_port *back = &t->nodes[tp->peer].ports[tp->peer_port];
			if (back->peer != i || back->peer_port != p)
				abort();
		}
		if (topo_find_guid(t, n->guid) != i)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256] = "";
	struct topo t;

	if (size == 0)
		return 0;
	FILE *in = fmemopen((void *)data, size, "r");
	if (!in)
		return 0;
	int rc = topofile_parse(in, "fuzz", &t, err, sizeof(err));
	fclose(in);
	if (rc == 0)
		fuzz_check_topo(&t);
	else if (strncmp(err, "fuzz:", 5) != 0 || t.n != 0 || t.nodes)
		abort();
	topo_free(&t);
	return 0;
}
