/*
 * libFuzzer target for a whole project (issue 36: no BUG an author can
 * reach): the input is a project's data folder, its files separated by
 * lines "%%" in this order: the model document, the catalogue
 * (schema.csv), then a.csv, b.csv and c.csv, the files a catalogue may
 * name (a part left out is a file that is not there). It goes through
 * what `ultimate report` does before it writes: the editions
 * (model_editions()), the model of the newest (model_build(), with the
 * figures' datasets) and of the first, the claims audit, the
 * references and the sources' keys, and the pages made from them in
 * memory (the Methods page, the quantities page). Any input must give
 * a model or located errors, never a crash, a leak or a BUG.
 *
 * The model reads a folder, so the target writes the parts into one
 * temporary folder of its own, made once and emptied at exit (the
 * other targets write nothing); it never starts gnuplot.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit.h"
#include "bib.h"
#include "buf.h"
#include "dataset.h"
#include "diag.h"
#include "methods.h"
#include "model.h"
#include "modeldoc.h"
#include "pages.h"
#include "registry.h"
#include "table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const parts[] = {
	"model.md", "schema.csv", "a.csv", "b.csv", "c.csv",
};
#define NPARTS (sizeof(parts) / sizeof(parts[0]))

static char dir[64];

static void
path_of(char *out, size_t n, size_t i)
{
	snprintf(out, n, "%s/%s", dir, parts[i]);
}

static void
clean(void)
{
	char p[128];
	size_t i;

	for (i = 0; i < NPARTS; i++) {
		path_of(p, sizeof(p), i);
		unlink(p);
	}
	rmdir(dir);
}

/* Writes the parts of data into dir: 0, or -1 when it cannot. */
static int
write_parts(const char *data, size_t size)
{
	const char *end = data + size, *sep;
	char p[128];
	size_t i;
	FILE *fp;

	if (!*dir) {
		const char *t = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/fuzz_project-XXXXXX",
			 t && *t && strlen(t) < 32 ? t : "/tmp");
		if (!mkdtemp(dir))
			return -1;
		atexit(clean);
	}
	for (i = 0; i < NPARTS; i++) {
		path_of(p, sizeof(p), i);
		if (!data) {
			unlink(p);
			continue;
		}
		/* The part ends at a line "%%", or with the input. */
		for (sep = data; sep < end; sep++)
			if ((sep == data || sep[-1] == '\n') &&
			    end - sep >= 3 && !memcmp(sep, "%%\n", 3))
				break;
		if (!(fp = fopen(p, "wb")))
			return -1;
		fwrite(data, 1, (size_t)(sep - data), fp);
		if (fclose(fp))
			return -1;
		data = sep < end ? sep + 3 : NULL;
	}
	return 0;
}

/* The pages made from an edition's model, in memory. */
static void
pages(const struct modeldoc *doc, const struct registry *reg,
      const struct bib *bib, const struct tableset *ts)
{
	struct quantities_page qp = { .root = "", .edition = "fuzz edition",
				      .bib = bib, .ts = ts };
	struct buf out = BUF_INIT;

	methods_page(&out, doc, reg, bib, "quantities.html", NULL, "", NULL);
	pages_quantities(reg, &qp, &out);
	buf_release(&out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tableset ts = { 0 };
	struct datasets ds = { 0 };
	struct registry *reg, *old;
	struct buf audit = BUF_INIT;
	struct bib bib = { 0 };
	const struct modeldoc *doc;
	int first, newest;

	diag_set_quiet(1);
	if (write_parts((const char *)data, size))
		abort();
	if (model_editions(dir, &ts, &first, &newest))
		first = newest = 0;
	reg = model_build(dir, 0, &ds, &ts);
	if (reg && audit_run(dir, reg, &audit, &ts) >= 0 &&
	    !bib_load(&bib, dir, &ts) && (doc = model_document(dir, &ts)) &&
	    !modeldoc_check_sources(doc, &bib)) {
		pages(doc, reg, &bib, &ts);
		/* The first edition, when there are more than one. */
		if (first && first < newest &&
		    (old = model_build(dir, first, NULL, &ts))) {
			if (audit_run(dir, old, &audit, &ts) >= 0)
				pages(doc, old, &bib, &ts);
			registry_free(old);
		}
	}
	registry_free(reg);
	datasets_release(&ds);
	bib_release(&bib);
	buf_release(&audit);
	tableset_release(&ts);
	diag_reset();
	return 0;
}
