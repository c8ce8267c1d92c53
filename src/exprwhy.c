/*
 * What an expression read, for the messages about it: the values of the
 * names it reads (expr_values()), those to blame when a check fails
 * (expr_culprits(), expr_failing()), and a quantity's formula evaluated
 * again against the value the model gave it (expr_check_formula()).
 */
#include <math.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "expr.h"
#include "exprint.h"
#include "registry.h"
#include "banned.h"

/* The names below e, into out, skipping those in seen ("\n"-separated). */
static void
add_values(const struct expr *e, const struct expr_env *env, struct buf *out,
	   struct buf *seen)
{
	struct buf name = BUF_INIT, key = BUF_INIT;
	const struct quantity *q;
	int in_has;

	if (!e)
		return;
	in_has = e->kind == N_CALL && e->fn->kind == FN_HAS;
	if (e->kind == N_CALL && e->var)
		return;		/* its names are each row's */
	if (e->kind != N_NAME && !in_has) {
		add_values(e->a, env, out, seen);
		add_values(e->b, env, out, seen);
		return;
	}
	if (env->bound) {
		struct value v = { 0 };
		const char *nm = in_has ? e->a->str : e->str;
		int r = expr_bound_get(env, nm, in_has ? NULL : &v, NULL);

		if (r != 2 && in_has) {
			buf_addf(&key, "\nhas %s\n", nm);
			if (!strstr(seen->data, key.data)) {
				if (seen->len > 1)
					BUF_ADDLIT(out, ", ");
				buf_add(seen, key.data + 1, key.len - 1);
				buf_addf(out, "has(%s) = %d", nm, r == 0);
			}
			buf_release(&key);
			return;
		}
		if (r != 2) {
			buf_addf(&key, "\n%s\n", e->str);
			if (!strstr(seen->data, key.data)) {
				if (seen->len > 1)
					BUF_ADDLIT(out, ", ");
				buf_add(seen, key.data + 1, key.len - 1);
				if (r)
					buf_addf(out, "%s = (none)", e->str);
				else if (v.type == VALUE_TEXT)
					buf_addf(out, "%s = '%s'", e->str,
						 v.text);
				else
					buf_addf(out, "%s = %.6g", e->str,
						 v.num);
			}
			value_release(&v);
			buf_release(&key);
			return;
		}
	}
	expr_resolve_name(in_has ? e->a : e, env, &name);
	buf_addf(&key, "\n%s%s\n", in_has ? "has " : "", name.data);
	if (!strstr(seen->data, key.data)) {
		if (seen->len > 1)
			BUF_ADDLIT(out, ", ");
		buf_add(seen, key.data + 1, key.len - 1);
		if (in_has) {
			buf_addf(out, "has(%s) = %d", name.data,
				 registry_has(env->reg, name.data));
		} else if (!(q = registry_get(env->reg, name.data))) {
			buf_addf(out, "%s = (no such quantity)", name.data);
		} else if (q->type == Q_TEXT) {
			const char *c;

			/* One line of message: control characters as spaces. */
			buf_addf(out, "%s = '", name.data);
			for (c = q->text; *c; c++)
				buf_addch(out, (unsigned char)*c < 0x20 ?
					  ' ' : *c);
			buf_addch(out, '\'');
		} else {
			buf_addf(out, "%s = %.6g", name.data, q->value);
		}
	}
	buf_release(&name);
	buf_release(&key);
}

void
expr_values(const struct expr *e, const struct expr_env *env, struct buf *out)
{
	struct buf seen = BUF_INIT;

	buf_addch(&seen, '\n');
	add_values(e, env, out, &seen);
	buf_release(&seen);
}
/* The names e reads, in the order written, each once, into out. */
static void
culprit_names(const struct expr *e, const struct expr_env *env,
	      struct buf *out)
{
	struct buf name = BUF_INIT, key = BUF_INIT;
	const struct expr *n = e;

	if (!e || (e->kind == N_CALL && e->var))
		return;		/* a reduction's names are each row's */
	if (e->kind == N_CALL && e->fn->kind == FN_HAS)
		n = e->a;
	if (n->kind != N_NAME) {
		culprit_names(e->a, env, out);
		culprit_names(e->b, env, out);
		culprit_names(e->c, env, out);
		return;
	}
	/* A name bound to a row stays as written: "r.mass_kg". */
	if (env->bound && expr_bound_get(env, n->str, NULL, NULL) != 2)
		buf_addstr(&name, n->str);
	else
		expr_resolve_name(n, env, &name);
	buf_addf(&key, "\n%s\n", name.data);
	if (!strstr(out->data, key.data))
		buf_add(out, key.data + 1, key.len - 1);
	buf_release(&name);
	buf_release(&key);
}

/*
 * The names that make e false, most to blame first: of a false "and"
 * its first false side; of a false "or" its sides from the right (the
 * guards come first: "!has(x) || x > 0" blames x > 0); of if() its
 * branch taken; else the names e reads, in the order written.
 */
static void
culprits(const struct expr *e, const struct expr_env *env, struct buf *out)
{
	struct value v = { 0 };
	int t;

	if (e->kind == N_BIN && e->op == OP_AND) {
		t = !expr_eval(e->a, env, &v) && !value_truthy(&v);
		value_release(&v);
		culprits(t ? e->a : e->b, env, out);
	} else if (e->kind == N_BIN && e->op == OP_OR) {
		culprits(e->b, env, out);
		culprits(e->a, env, out);
	} else if (e->kind == N_NOT) {
		culprits(e->a, env, out);
	} else if (e->kind == N_CALL && e->fn->kind == FN_IF) {
		t = !expr_eval(e->a, env, &v) && value_truthy(&v);
		value_release(&v);
		culprits(t ? e->b : e->c, env, out);
		culprit_names(e->a, env, out);
	} else {
		culprit_names(e, env, out);
	}
}

void
expr_culprits(const struct expr *e, const struct expr_env *env,
	      struct buf *out)
{
	buf_addch(out, '\n');
	culprits(e, env, out);
}

const struct expr *
expr_failing(const struct expr *e, const struct expr_env *env)
{
	struct value v = { 0 };
	int t;

	if (e->kind == N_BIN && e->op == OP_AND) {
		t = !expr_eval(e->a, env, &v) && !value_truthy(&v);
		value_release(&v);
		return expr_failing(t ? e->a : e->b, env);
	}
	if (e->kind == N_CALL && e->fn->kind == FN_IF) {
		t = !expr_eval(e->a, env, &v) && value_truthy(&v);
		value_release(&v);
		return expr_failing(t ? e->b : e->c, env);
	}
	return e;
}

/*
 * Whether e reduces over rows that are no family of reg (a data file's,
 * or a set of them the model document names): gone with the model's
 * tables, the registry cannot re-evaluate e. A set is a row itself
 * (NAME.id), though a family's rows may share its prefix (the windows
 * of a series, "series.top500.fit_all"): a reduction over it reads the
 * set's rows, not theirs.
 */
static int
reads_rows(const struct expr *e, const struct registry *reg)
{
	struct buf rows = BUF_INIT;
	int ret = 0;

	if (!e)
		return 0;
	if (e->over) {
		expr_family_rows(reg, e->over, &rows);
		ret = !rows.len;
		if (!ret && !strchr(e->over, ' ')) {
			buf_reset(&rows);
			buf_addf(&rows, "%s.id", e->over);
			ret = registry_get(reg, rows.data) != NULL;
		}
		buf_release(&rows);
	}
	return ret || reads_rows(e->a, reg) || reads_rows(e->b, reg) ||
	       reads_rows(e->c, reg) || reads_rows(e->by, reg) ||
	       reads_rows(e->distinct, reg);
}

int
expr_check_formula(const struct registry *reg, const struct quantity *q)
{
	struct buf fname = BUF_INIT, names = BUF_INIT, key = BUF_INIT;
	struct buf ua = BUF_INIT;
	struct expr_env env = { .reg = reg };
	struct srcfile *f;
	struct expr *e = NULL;
	struct value v = { 0 };
	const char *p;
	double got;
	size_t i;
	int ret = -1, exact;

	if (!q->expr)
		return 0;
	buf_addf(&fname, "formula of %s", q->name);
	f = srcfile_from_mem(fname.data, q->expr, strlen(q->expr));
	f->show_source = 1;
	if (!(e = expr_parse(f, 0, f->len)))
		goto out;
	/* Its names are its inputs: no fewer, and no more that exist. */
	buf_addch(&names, '\n');
	expr_inputs(e, &names);
	for (p = names.data + 1; *p; p += strcspn(p, "\n") + 1) {
		size_t len = strcspn(p, "\n");

		for (i = 0; i < q->ninputs; i++)
			if (strlen(q->inputs[i]) == len &&
			    !memcmp(q->inputs[i], p, len))
				break;
		buf_reset(&key);
		buf_add(&key, p, len);
		/* A name of no quantity: in a branch of if() not taken. */
		if (i == q->ninputs && registry_has(reg, key.data)) {
			error("formula of '%s' uses '%.*s', which is not one "
			      "of its inputs", q->name, (int)len, p);
			goto out;
		}
	}
	for (i = 0; i < q->ninputs; i++) {
		buf_reset(&key);
		buf_addf(&key, "\n%s\n", q->inputs[i]);
		if (!strstr(names.data, key.data)) {
			error("input '%s' of '%s' is not in its formula '%s'",
			      q->inputs[i], q->name, q->expr);
			goto out;
		}
	}
	if (reads_rows(e, reg)) {
		ret = 1;
		goto out;
	}
	if (expr_eval(e, &env, &v))
		goto out;
	if (v.type == VALUE_TEXT && q->type == Q_TEXT) {
		if (strcmp(v.text, q->text))
			error("formula of '%s' gives '%s', but the model has "
			      "'%s': %s", q->name, v.text, q->text, q->expr);
		else
			ret = 0;
		goto out;
	}
	if (v.type != VALUE_NUMBER || q->type != Q_NUMBER) {
		error("formula of '%s' gives %s, the model %s", q->name,
		      v.type == VALUE_NUMBER ? "a number" : "a text",
		      q->type == Q_NUMBER ? "a number" : "a text");
		goto out;
	}
	if (!q->dim_ok || !unit_same_si(&v.unit, &q->dim)) {
		unit_format(&ua, &v.unit);
		error("formula of '%s' is in %s, but its unit is '%s'",
		      q->name, ua.data, q->unit);
		goto out;
	}
	got = expr_convert(v.num, &v.unit, &q->dim);
	/*
	 * Years and whole numbers exactly; the rest to 1e-12. From 2^52 on
	 * every double is whole, counts or not (6.9e15 FLOP/s): those too
	 * are held to 1e-12.
	 */
	exact = q->dim.calendar ||
		(q->value == floor(q->value) && fabs(q->value) < 4503599627370496.0);
	if (exact ? got != q->value :
	    !(fabs(got - q->value) <= 1e-12 * fabs(q->value))) {
		error("formula of '%s' gives %.17g, but the model computed "
		      "%.17g (relative difference %.3g): %s", q->name, got,
		      q->value, q->value ? fabs(got / q->value - 1) : got,
		      q->expr);
		goto out;
	}
	ret = 0;
out:
	value_release(&v);
	expr_free(e);
	srcfile_free(f);
	buf_release(&fname);
	buf_release(&names);
	buf_release(&key);
	buf_release(&ua);
	return ret;
}

