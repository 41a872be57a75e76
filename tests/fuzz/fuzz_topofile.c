// SPDX-License-Identifier: MIT
/*
 * fuzz_topofile.c - fuzz target for the topology reader.
 *
 * LLVMFuzzerTestOneInput() feeds arbitrary bytes to topofile_parse() through
 * fmemopen and checks what must hold either way: on success a consistent topo
 * (links symmetric, ports in range); on failure an error message naming the
 * input and an empty topo.  Built with -fsanitize=fuzzer and
 * -DFUZZ_LIBFUZZER for libFuzzer; otherwise main() runs every file of a corpus
 * directory (default $top_srcdir/tests/fuzz/corpus-topofile) once, as a test.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_topofile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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

#ifndef FUZZ_LIBFUZZER
static int fuzz_run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long len;

	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(buf = malloc((size_t)len + 1)) || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		fprintf(stderr, "fuzz_topofile: cannot read %s\n", path);
		if (f)
			fclose(f);
		free(buf);
		return 1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	const char *top = getenv("top_srcdir");
	char dir[4096], path[8192];
	unsigned n = 0;
	int rc = 0;

	if (argc > 1)
		snprintf(dir, sizeof(dir), "%s", argv[1]);
	else
		snprintf(dir, sizeof(dir), "%s/tests/fuzz/corpus-topofile", top ? top : ".");
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "fuzz_topofile: cannot open %s\n", dir);
		return 1;
	}
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		rc |= fuzz_run_file(path);
		n++;
	}
	closedir(d);
	printf("fuzz_topofile: %u inputs from %s\n", n, dir);
	return rc || n == 0;
}
#endif
