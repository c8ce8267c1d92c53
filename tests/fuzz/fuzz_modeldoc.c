/*
 * libFuzzer target for the model document (src/modeldoc.c): the input
 * as a whole document, parsed, and when it parses evaluated into a
 * registry that holds a few quantities and one row of a family, with a
 * provider that adds a row. Any input must give a document or errors,
 * never a crash, a leak or an endless loop (definitions that read each
 * other are a located error).
 */
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "modeldoc.h"
#include "registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The provider "rows": adds the row box.b, as model.c adds devices. */
static int
rows(void *ctx)
{
	struct modeldoc_eval *ev = ctx;

	if (registry_get(ev->reg, "box.b.id"))
		return 0;
	registry_add_text(ev->reg, "box.b.id", "b", "row", NULL, "s", NULL);
	return modeldoc_row(ev, "box.b");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct modeldoc_provider providers[] = {
		{ "rows", rows },
		{ NULL, NULL },
	};
	struct modeldoc *doc;

	diag_set_quiet(1);
	doc = modeldoc_from_mem("fuzz", (const char *)data, size);
	if (doc) {
		struct registry *reg = registry_new();
		struct modeldoc_eval ev = { .doc = doc, .reg = reg,
					    .providers = providers };

		registry_add_num(reg, "x", 2, "m", "f", NULL, "s", NULL);
		registry_add_num(reg, "zero", 0, "", "f", NULL, "s", NULL);
		registry_add_text(reg, "box.a.id", "a", "row", NULL, "s",
				  NULL);
		registry_add_num(reg, "box.a.mass", 2, "kg", "f", NULL, "s",
				 NULL);
		ev.ctx = &ev;
		modeldoc_run(&ev);
		registry_free(reg);
		modeldoc_free(doc);
	}
	diag_reset();
	return 0;
}
