/*
 * pdf_normalize(): Chromium's PDF made reproducible. A small PDF laid out
 * as Chromium's Skia writes them (a classic cross-reference table, stream
 * data after ">> stream"): the dates become the edition's, tag ids are
 * numbered in order (in dictionaries, not in stream data), links into
 * the printed tree become relative, and every offset of the table and
 * startxref lands on its object after the edits changed lengths.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "testutil.h"
#include "buf.h"
#include "pdf.h"

#define PREFIX "file:///tmp/x/.staging-abc123/print/"

/*
 * A PDF whose run-dependent parts are date (14 digits) and base (added
 * to every tag id), with a correct cross-reference table.
 */
static void
make_pdf(struct buf *b, const char *date, unsigned base)
{
	size_t off[6];
	int i;

	buf_reset(b);
	BUF_ADDLIT(b, "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n");
	off[1] = b->len;
	buf_addf(b, "1 0 obj\n<</Creator (test)\n/CreationDate (D:%s+00'00')"
		 "\n/ModDate (D:%s+00'00')>>\nendobj\n", date, date);
	off[2] = b->len;
	BUF_ADDLIT(b, "2 0 obj\n<</Type /Annot\n/A <</S /URI\n/URI ("
		   PREFIX "quantities/laptop.html#laptop.ops_max)>>>>\n"
		   "endobj\n");
	off[3] = b->len;
	buf_addf(b, "3 0 obj\n<</ID (node%08u)\n/Headers [(node%08u) "
		 "(node%08u)]>>\nendobj\n", base + 7, base + 3, base + 7);
	off[4] = b->len;
	/* Stream data: copied as they are, even what looks like an id. */
	BUF_ADDLIT(b, "4 0 obj\n<</Filter /FlateDecode\n/Length 26>> stream\n"
		   "node00000042 (" PREFIX "x)\n\nendstream\nendobj\n");
	off[5] = b->len;
	BUF_ADDLIT(b, "5 0 obj\n<</A <</S /URI\n/URI (" PREFIX
		   "editions/2010/quantities.html)>>>>\nendobj\n");
	buf_addf(b, "xref\n0 6\n0000000000 65535 f \n");
	for (i = 1; i < 6; i++)
		buf_addf(b, "%010zu 00000 n \n", off[i]);
	/* The table's offset: where "xref" starts. */
	{
		const char *x = strstr(b->data, "xref\n0 6");

		buf_addf(b, "trailer\n<</Size 6\n/Root 1 0 R>>\nstartxref\n"
			 "%zu\n%%%%EOF\n", (size_t)(x - b->data));
	}
}

/* Every in-use entry of the table points at "K 0 obj"; startxref at it. */
static void
assert_xref(const struct buf *b)
{
	const char *sx = strstr(b->data, "startxref\n"), *x, *e;
	size_t at;
	int k;

	assert_non_null(sx);
	at = strtoul(sx + 10, NULL, 10);
	assert_true(at < b->len);
	assert_memory_equal(b->data + at, "xref\n0 6\n", 9);
	x = b->data + at + 9;
	for (k = 0; k < 6; k++, x += 20) {
		char want[16];

		if (x[17] != 'n')
			continue;
		e = b->data + strtoul(x, NULL, 10);
		snprintf(want, sizeof(want), "%d 0 obj", k);
		assert_memory_equal(e, want, strlen(want));
	}
}

static void
test_normalize(void **state)
{
	struct buf in = BUF_INIT, out = BUF_INIT;

	(void)state;
	make_pdf(&in, "20261204182147", 431);
	assert_int_equal(pdf_normalize(in.data, in.len, PREFIX,
				       "editions/2010/", 2010, &out), 0);
	assert_non_null(strstr(out.data,
		"/CreationDate (D:20100101000000+00'00')"));
	assert_non_null(strstr(out.data,
		"/ModDate (D:20100101000000+00'00')"));
	assert_null(strstr(out.data, "2026"));
	/* Up to the top, or within the PDF's own folder. */
	assert_non_null(strstr(out.data,
		"/URI (../../quantities/laptop.html#laptop.ops_max)"));
	assert_non_null(strstr(out.data, "/URI (quantities.html)"));
	/* Ids in order of first use, the same width. */
	assert_non_null(strstr(out.data, "<</ID (node00000000)\n/Headers "
		"[(node00000001) (node00000000)]>>"));
	assert_non_null(strstr(out.data, "stream\nnode00000042 (" PREFIX));
	assert_xref(&out);
	buf_release(&in);
	buf_release(&out);
}

/* Two runs of Chromium (another time, other ids): the same bytes. */
static void
test_reproducible(void **state)
{
	struct buf a = BUF_INIT, b = BUF_INIT, na = BUF_INIT, nb = BUF_INIT;

	(void)state;
	make_pdf(&a, "20261204182147", 431);
	make_pdf(&b, "20270101235959", 9000);
	assert_true(a.len != b.len || memcmp(a.data, b.data, a.len));
	assert_int_equal(pdf_normalize(a.data, a.len, PREFIX, "", 2026,
				       &na), 0);
	assert_int_equal(pdf_normalize(b.data, b.len, PREFIX, "", 2026,
				       &nb), 0);
	assert_int_equal(na.len, nb.len);
	assert_memory_equal(na.data, nb.data, na.len);
	assert_non_null(strstr(na.data,
		"/URI (quantities/laptop.html#laptop.ops_max)"));
	assert_non_null(strstr(na.data,
		"/URI (editions/2010/quantities.html)"));
	assert_xref(&na);
	buf_release(&a);
	buf_release(&b);
	buf_release(&na);
	buf_release(&nb);
}

/* Not a PDF, or one without its table: refused. */
static void
test_refused(void **state)
{
	struct buf in = BUF_INIT, out = BUF_INIT;
	char *x;

	(void)state;
	assert_int_equal(pdf_normalize("junk\n", 5, PREFIX, "", 2026, &out),
			 -1);
	buf_reset(&out);
	make_pdf(&in, "20261204182147", 1);
	x = strstr(in.data, "xref\n0 6");
	memcpy(x, "xref\n0 9", 8);	/* more entries than there are */
	assert_int_equal(pdf_normalize(in.data, in.len, PREFIX, "", 2026,
				       &out), -1);
	buf_reset(&out);
	make_pdf(&in, "20261204182147", 1);
	in.len = (size_t)(strstr(in.data, "xref\n0 6") - in.data);
	in.data[in.len] = '\0';
	assert_int_equal(pdf_normalize(in.data, in.len, PREFIX, "", 2026,
				       &out), -1);
	buf_release(&in);
	buf_release(&out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_reproducible),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
