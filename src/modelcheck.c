/*
 * The model document's checks ("check: COND: WHY"): each condition of
 * an item evaluated for its row, and a failed one told where it is to
 * be fixed: at the data cell most to blame (expr_culprits(), through
 * the model's cell_error()), else at the check; and the works each
 * "source:" cites, against the references list. Reads the document and
 * the registry; writes messages, nothing else.
 */
#include <string.h>

#include "bib.h"
#include "buf.h"
#include "diag.h"
#include "expr.h"
#include "modeldoc.h"
#include "modeldocint.h"
#include "registry.h"
#include "banned.h"

/*
 * The error of check c, which failed in env: at the data cell most to
 * blame (expr_culprits()) when one is, a name var.X bound to the row of
 * a file at origin, or a quantity the data give (its origin, or for one
 * the row leaves empty its row's); else at the check, after where.
 */
void
modeleval_check_failed(struct modeldoc_eval *ev, const struct check *c,
		       const struct expr_env *env, const char *var,
		       const char *origin, const char *where)
{
	struct buf vals = BUF_INIT, msg = BUF_INIT, names = BUF_INIT;
	struct buf name = BUF_INIT, id = BUF_INIT;
	const struct expr *part = expr_failing(c->cond, env);
	const struct quantity *q;
	size_t line, col, vl = var ? strlen(var) : 0;
	const char *p;
	int done = 1;

	/* The values of the part that fails, not of every part. */
	expr_values(part, env, &vals);
	srcfile_locate(ev->doc->f, c->a.off, &line, &col);
	buf_addf(&msg, "fails the check '%s' (%s), %s:%zu:%zu", c->reason,
		 vals.data, ev->doc->f->name, line, col);
	if (ev->cell_error)
		expr_culprits(part, env, &names);
	for (p = names.data + (names.len > 0); done && *p;
	     p += strcspn(p, "\n") + 1) {
		buf_reset(&name);
		buf_add(&name, p, strcspn(p, "\n"));
		if (var && !strncmp(name.data, var, vl) && name.data[vl] == '.') {
			done = ev->cell_error(ev->ctx, origin, name.data + vl + 1,
					      0, msg.data);
			continue;
		}
		/* Empty in its row: the row's id has the row's origin. */
		buf_reset(&id);
		if (strrchr(name.data, '.'))
			buf_add(&id, name.data,
				(size_t)(strrchr(name.data, '.') - name.data));
		BUF_ADDLIT(&id, ".id");
		if ((q = registry_get(ev->reg, name.data)) ||
		    (q = registry_get(ev->reg, id.data)))
			if (q->origin)
				done = ev->cell_error(ev->ctx, q->origin,
						      name.data, 0, msg.data);
	}
	if (done)
		modeldoc_error(ev->doc, c->a.off, c->a.len,
			       "%sthis check fails: %s (%s)", where, c->reason,
			       vals.data);
	ev->failed = 1;
	buf_release(&vals);
	buf_release(&msg);
	buf_release(&names);
	buf_release(&name);
	buf_release(&id);
}

int
modeleval_check(const struct item *it, const struct expr_env *env,
		const struct check **failed)
{
	struct value v = { 0 };
	size_t k;
	int ret, t;

	for (k = 0; k < it->nchecks; k++) {
		ret = expr_eval(it->checks[k].cond, env, &v);
		t = !ret && value_truthy(&v);
		value_release(&v);
		if (ret)
			return -1;
		if (!t) {
			*failed = &it->checks[k];
			return 1;
		}
	}
	return 0;
}

/* bib_check_text()'s error in a "source:" at off of doc. */
struct source_at {
	const struct modeldoc *doc;
	size_t off;
};

static void
source_error(void *ctx, size_t at, size_t len, const char *msg)
{
	const struct source_at *s = ctx;

	modeldoc_error(s->doc, s->off + at, len, "%s", msg);
}

int
modeldoc_check_sources(const struct modeldoc *doc, const struct bib *bib)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < doc->n; i++) {
		const struct attr *a = &doc->items[i].a[A_SOURCE];
		struct source_at at = { doc, a->off };

		if (a->text && bib_check_text(bib, a->text, source_error, &at))
			ret = -1;
	}
	return ret;
}

void
modeldoc_check(const struct modeldoc *doc, size_t i, size_t k,
	       const char **cond, size_t *cond_len, const char **why)
{
	const struct check *c = &doc->items[i].checks[k];

	*cond = c->a.text;
	*cond_len = (size_t)(c->reason - c->a.text);
	/* Before the reason: ": ", and spaces. */
	while (*cond_len && (c->a.text[*cond_len - 1] == ' ' ||
			     c->a.text[*cond_len - 1] == ':'))
		(*cond_len)--;
	*why = c->reason;
}
