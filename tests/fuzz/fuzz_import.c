/*
 * libFuzzer target for the reference importer (src/import.c, `ultimate
 * import-refs`): any bytes as a BibTeX or CSL-JSON export (the first
 * character other than white space chooses, as for a file). The
 * hand-written BibTeX parser and TeX-to-text conversion, jansson and the
 * locating of each entry all see every input; on success the CSV must be
 * rows of text ending in a newline. Never writes files.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "buf.h"
#include "diag.h"
#include "import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf out = BUF_INIT;

	diag_set_quiet(1);
	if (!import_refs_mem("fuzz.bib", (const char *)data, size, &out) &&
	    (!out.len || out.data[out.len - 1] != '\n'))
		abort();
	buf_release(&out);
	return 0;
}
