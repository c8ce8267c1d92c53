/*
 * libFuzzer target for the PDF normalizer (src/pdf.c): any bytes as the
 * PDF the browser printed, through pdf_normalize(), for a PDF at the top
 * of the site or in an edition's folder (the parity of the size
 * chooses). What another program wrote is read within its bounds,
 * whatever it holds; a PDF that comes out keeps its header and its
 * startxref. Opens no file and starts no program.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "pdf.h"
#include "xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PREFIX "file:///tmp/x/.staging-abc123/print/"

#define CHECK(cond) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "fuzz_pdf: %s:%d: '%s' fails\n", \
				__FILE__, __LINE__, #cond); \
			abort(); \
		} \
	} while (0)

/* Whether the len bytes at p (NUL bytes too) hold s. */
static int
holds(const char *p, size_t len, const char *s)
{
	size_t n = strlen(s), i;

	for (i = 0; i + n <= len; i++)
		if (!memcmp(p + i, s, n))
			return 1;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const dirs[] = { "", "editions/2010/" };
	struct buf out = BUF_INIT;
	const char *dir = dirs[size & 1];
	/* Exactly size bytes, no NUL after them: a read past is seen. */
	char *in = xmalloc(size ? size : 1);

	memcpy(in, data, size);
	if (!pdf_normalize(in, size, PREFIX, dir, 2010, &out)) {
		CHECK(out.len >= 5 && !memcmp(out.data, "%PDF-", 5));
		CHECK(holds(out.data, out.len, "startxref\n"));
	}
	CHECK(out.data[out.len] == '\0');
	free(in);
	buf_release(&out);
	return 0;
}
