/*
 * libFuzzer target for the expression parser and evaluator, over a small
 * registry of numbers, texts and one row of a family (box.a, for the
 * reductions).
 */
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "diag.h"
#include "expr.h"
#include "registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct registry *reg;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct srcfile *f;
	struct expr *e;

	diag_set_quiet(1);
	if (!reg) {
		reg = registry_new();
		registry_add_num(reg, "laptop.ops_max", 5.4e50, "ops/s", "f",
				 NULL, "s", NULL);
		registry_add_num(reg, "zero", 0, "", "f", NULL, "s", NULL);
		registry_add_num(reg, "x", -2.5, "m", "f", NULL, "s", NULL);
		registry_add_text(reg, "record.name", "Roadrunner", "f", NULL,
				  "s", NULL);
		/* A row, for the reductions: max(r in box: r.m). */
		registry_add_text(reg, "box.a.id", "a", "f", NULL, "s", NULL);
		registry_add_num(reg, "box.a.m", 3, "m", "f", NULL, "s", NULL);
	}
	f = srcfile_from_mem("fuzz", (const char *)data, size);
	e = expr_parse(f, 0, f->len);
	if (e) {
		struct expr_env env = { .reg = reg };
		struct buf vals = BUF_INIT;
		struct value v;

		if (!expr_eval(e, &env, &v)) {
			value_truthy(&v);
			value_release(&v);
		}
		/* As a slot with a fallback, and as a failed assertion. */
		env.missing_ok = 1;
		if (!expr_eval(e, &env, &v))
			value_release(&v);
		expr_values(e, &env, &vals);
		buf_release(&vals);
		expr_name(e);
		expr_free(e);
	}
	srcfile_free(f);
	return 0;
}
