/*
 * libFuzzer target for the template language and the Markdown renderer:
 * any bytes as templates/report.md, expanded over a small registry and
 * rendered by cmark-gfm; then the same bytes as one text of value slots
 * (a claim's explanation, template_expand_text()). Includes resolve in a
 * folder that does not exist, so nothing is read; nothing is written and
 * gnuplot never runs.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "buf.h"
#include "diag.h"
#include "html.h"
#include "registry.h"
#include "template.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Where a text's errors go: nowhere (diag_set_quiet() for the rest). */
static int
drop_error(const void *ctx, size_t off, const char *msg)
{
	(void)ctx;
	(void)off;
	(void)msg;
	return -1;
}

static struct registry *reg;

static void
setup(void)
{
	reg = registry_new();
	registry_add_num(reg, "laptop.ops_max", 5.4255699586085285e50,
			 "ops/s", "f", NULL, "s", NULL);
	registry_add_num(reg, "laptop.volume", 1e-3, "m^3", "f", NULL, "s",
			 NULL);
	registry_add_num(reg, "zero", 0, "", "f", NULL, "s", NULL);
	registry_add_num(reg, "neg", -1234.5, "", "f", NULL, "s", NULL);
	registry_add_text(reg, "record.name", "Road*runner* <b>", "f", NULL,
			  "s", NULL);
	registry_add_text(reg, "device.a.id", "a", "f", NULL, "s", NULL);
	registry_add_text(reg, "device.a.name", "A | [x](y)", "f", NULL, "s",
			  NULL);
	registry_add_num(reg, "device.a.year", 2008, "year", "f", NULL, "s",
			 NULL);
	registry_add_text(reg, "device.b.id", "b", "f", NULL, "s", NULL);
	registry_add_text(reg, "device.b.name", "B", "f", NULL, "s", NULL);
	registry_add_num(reg, "device.b.year", 2024, "year", "f", NULL, "s",
			 NULL);
	/*
	 * A computed quantity with a formula: a linked number, and MathML
	 * for {{ math() }} and {{ equation() }}, wherever the input puts
	 * them (tables, code, links, headings, alt text).
	 */
	registry_set_expr(registry_add_num(reg, "laptop.energy", 2e-3, "J",
					   "2 V", "laptop.volume", "s", NULL),
			  "2 * laptop.volume", "n");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct template *t;
	struct expansion x;
	struct srcfile *f;
	struct buf text = BUF_INIT, names = BUF_INIT;

	diag_set_quiet(1);
	if (!reg)
		setup();
	f = srcfile_piece((const char *)data, size, drop_error, NULL);
	template_expand_text(f, reg, &text, &names);
	srcfile_free(f);
	buf_release(&text);
	buf_release(&names);
	t = template_parse("/nonexistent-fuzz-dir", "report.md",
			   (const char *)data, size);
	if (!t)
		return 0;
	expansion_init(&x);
	if (!template_expand(t, reg, &x)) {
		struct buf body = BUF_INIT, toc = BUF_INIT;
		struct rendered r = { .body = &body, .toc = &toc };

		html_render(&x, &r);
		free(r.title);
		buf_release(&body);
		buf_release(&toc);
	}
	expansion_release(&x);
	template_free(t);
	return 0;
}
