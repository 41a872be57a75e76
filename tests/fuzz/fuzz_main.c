// SPDX-License-Identifier: MIT
/*
 * fuzz_main.c - run a fuzz target over its corpus as an ordinary test.
 *
 * Every fuzz target defines LLVMFuzzerTestOneInput() and the name of its seed
 * corpus (fuzz_corpus).  Built with libFuzzer (-fsanitize=fuzzer, and
 * -DFUZZ_LIBFUZZER so this main() steps aside) it fuzzes; built plainly, this
 * main() feeds it every file of tests/fuzz/<corpus>/ (or of the directory named
 * on the command line) once, so `make check` replays the corpus.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/fuzz/fuzz.h"

#ifndef FUZZ_LIBFUZZER
static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long len;

	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(buf = malloc((size_t)len + 1)) || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		fprintf(stderr, "%s: cannot read %s\n", fuzz_corpus, path);
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
		snprintf(dir, sizeof(dir), "%s/tests/fuzz/%s", top ? top : ".", fuzz_corpus);
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "%s: cannot open %s\n", fuzz_corpus, dir);
		return 1;
	}
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		rc |= run_file(path);
		n++;
	}
	closedir(d);
	printf("%s: %u inputs from %s\n", fuzz_corpus, n, dir);
	return rc || n == 0;
}
#endif
