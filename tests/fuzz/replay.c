/*
 * Runs a fuzz target over files without libFuzzer: the seed corpus and
 * every input a fuzzer once crashed on (tests/fuzz/regressions/) become
 * ordinary tests, under the sanitizers in `make check`.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
main(int argc, char **argv)
{
	int i, n = 0;

	for (i = 1; i < argc; i++) {
		FILE *fp = fopen(argv[i], "rb");
		unsigned char *buf = NULL;
		size_t len = 0, cap = 0, got;

		if (!fp) {
			perror(argv[i]);
			return 1;
		}
		do {
			if (len == cap) {
				cap = cap ? cap * 2 : 4096;
				buf = realloc(buf, cap);
				if (!buf)
					return 1;
			}
			got = fread(buf + len, 1, cap - len, fp);
			len += got;
		} while (got);
		fclose(fp);
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
		n++;
	}
	printf("replayed %d inputs\n", n);
	return 0;
}
