/*
 * The model document's picks ("NAME = largest VAR in PREFIX by KEY ...
 * where COND"): the row of a family that wins by its keys, copied again
 * under the pick's name as a row of the families over its prefix.
 * Reads the document and the registry; writes quantities.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "expr.h"
#include "modeldoc.h"
#include "modeldocint.h"
#include "registry.h"
#include "suggest.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

/*
 * What the families over the pick's row compute (".sbops" of d.sbops),
 * each after a newline, into rests: the family evaluates those for the
 * pick, and they are not copied.
 */
static void
family_rests(struct modeldoc_eval *ev, const char *pick, struct buf *rests)
{
	const struct modeldoc *doc = ev->doc;
	size_t i, k;

	for (i = 0; i < doc->n; i++) {
		const struct item *it = &doc->items[i];

		if (it->kind != ITEM_DEF || !it->var || !modeleval_row_of(it->over, pick))
			continue;
		/* A per-rate one, once per rate: ".gap.ops.years_lloyd". */
		for (k = 0; k < (it->per_rate ? doc->nrates : 1); k++) {
			struct bind b;

			modeleval_bind(&b, ev, it, NULL,
				  it->per_rate ? k : NO_RATE);
			buf_addch(rests, '\n');
			if (modeleval_bound_name(&b, it->name + strlen(it->var), rests))
				buf_addstr(rests, it->name + strlen(it->var));
			buf_addch(rests, '\n');
		}
	}
}

/*
 * The picked row's quantities under the pick's name: each quantity
 * ROW.rest as PICK.rest, with the same value, unit, source and data row.
 * One the data give stays one the data give, its words saying which row
 * it is and why; one computed has the formula ROW.rest (its input) and
 * the pick's note. Then the families over the pick's prefix evaluate
 * their members for it (modeldoc_row()).
 */
/* bsearch() and qsort() of the rests: strcmp() of the strings. */
static int
by_rest(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The names a pick's keys and condition read beyond its rows' own (the
 * edition's laptop's tier, in then.laptop's key), space-separated into
 * out: its choice turns with them as with its rows, so each quantity it
 * copies names them as its because (changes.c finds the data rows that
 * caused a change through them).
 */
static void
pick_because(const struct pick *pk, struct buf *out)
{
	struct buf names = BUF_INIT;
	size_t k, vl = strlen(pk->var);
	const char *p;

	buf_addch(&names, '\n');
	for (k = 0; k < pk->nkeys; k++)
		expr_inputs(pk->key[k], &names);
	if (pk->where)
		expr_inputs(pk->where, &names);
	for (p = names.data + 1; *p; p += strcspn(p, "\n") + 1) {
		size_t len = strcspn(p, "\n");

		if (!strncmp(p, pk->var, vl) && (len == vl || p[vl] == '.'))
			continue;
		if (out->len)
			buf_addch(out, ' ');
		buf_add(out, p, len);
	}
	buf_release(&names);
}

static int
copy_row(struct modeldoc_eval *ev, const struct item *it, const char *row)
{
	struct buf name = BUF_INIT, formula = BUF_INIT, rests = BUF_INIT;
	struct buf because = BUF_INIT;
	const char *note = it->a[A_NOTE].text;
	size_t k, n = registry_count(ev->reg), rl = strlen(row);
	size_t nrest = 0, cap = 0;
	char **rest = NULL, *p;
	int ret = 0;

	family_rests(ev, it->name, &rests);
	pick_because(it->pick, &because);
	/*
	 * Its lines, sorted, for bisection: a strstr() of the text for
	 * each quantity of the row was 17.4M of every edition's
	 * instructions.
	 */
	for (p = rests.data; *(p += strspn(p, "\n"));) {
		size_t len = strcspn(p, "\n");

		rest = xgrow(rest, &cap, nrest + 1, sizeof(*rest));
		rest[nrest++] = p;
		if (p[len])
			p[len++] = '\0';
		p += len;
	}
	if (nrest)	/* qsort() and bsearch() take no NULL array */
		qsort(rest, nrest, sizeof(*rest), by_rest);
	for (k = 0; k < n && !ret; k++) {
		const struct quantity *q = registry_at(ev->reg, k);
		const char *in = q->ninputs ? q->name : NULL, *tail;
		struct quantity *c;

		if (strncmp(q->name, row, rl) || q->name[rl] != '.')
			continue;
		tail = q->name + rl;
		/*
		 * What a family computes it computes for the pick too; what
		 * the data give (a label the family defines only for rows
		 * without one) is copied.
		 */
		if (nrest && q->expr &&
		    bsearch(&tail, rest, nrest, sizeof(*rest), by_rest))
			continue;
		buf_reset(&name);
		buf_addstr(&name, it->name);
		buf_addstr(&name, q->name + rl);
		buf_reset(&formula);
		if (in) {
			buf_addstr(&formula, q->name);
			if (note)
				buf_addf(&formula, " (%s)", note);
		} else {
			buf_addf(&formula, "%s; the row %s", q->formula, row);
			if (note)
				buf_addf(&formula, ", %s", note);
		}
		if (q->type == Q_TEXT) {
			c = registry_add_text(ev->reg, name.data, q->text,
					      formula.data, in, q->source,
					      q->origin);
		} else {
			c = registry_add_num(ev->reg, name.data, q->value,
					     q->unit, formula.data, in,
					     q->source, q->origin);
			if (c && in)
				registry_set_expr(c, q->name, note);
		}
		if (!c)
			ret = modeldoc_error(ev->doc, it->off, it->len, "'%s' "
					"could not be added (see above)",
					name.data);
		else if (because.len)
			registry_set_because_of(c, because.data);
	}
	buf_release(&because);
	buf_release(&name);
	buf_release(&formula);
	buf_release(&rests);
	free(rest);
	return ret ? ret : modeldoc_row(ev, it->name);
}

/* Whether a prefix of over is named by a family of the document. */
static int
known_prefix(const struct modeldoc *doc, const char *over)
{
	struct buf row = BUF_INIT;
	const char *p = over;
	size_t i, len;
	int known = 0;

	for (; *p && !known; p += len + (p[len] == ' ')) {
		len = strcspn(p, " ");
		buf_reset(&row);
		buf_add(&row, p, len);
		BUF_ADDLIT(&row, ".x");
		for (i = 0; i < doc->n && !known; i++)
			known = doc->items[i].var &&
				modeleval_row_of(doc->items[i].over, row.data);
	}
	buf_release(&row);
	return known;
}

/*
 * The rows of a pick (modeldoc_row_id()), each "PREFIX.X" after a
 * newline, into rows; their number. No rows, and a prefix no family of
 * the document names and no quantity starts with: an error (-1).
 */
static long
pick_rows(struct modeldoc_eval *ev, const struct item *it, struct buf *rows)
{
	const struct pick *pk = it->pick;
	struct buf row = BUF_INIT, hint = BUF_INIT;
	size_t k;
	long n = 0;
	char *near[3];

	for (k = 0; k < registry_nids(ev->reg); k++) {
		const char *name = registry_id_at(ev->reg, k)->name;

		if (!modeldoc_row_id(pk->over, name, &row))
			continue;
		buf_addch(rows, '\n');
		buf_addstr(rows, row.data);
		n++;
	}
	if (!n && !known_prefix(ev->doc, pk->over) &&
	    !registry_has(ev->reg, pk->over)) {
		size_t m = registry_suggest_prefix(ev->reg, pk->over, near, 3);

		suggest_hint(&hint, (const char *const *)near, m);
		while (m)
			free(near[--m]);
		n = modeldoc_error(ev->doc, it->expr_off, it->expr_len, "unknown "
			      "family '%s': no rows '%s.X' (X where '%s.X.id' "
			      "is a quantity), and no 'for' of the document "
			      "ranges over it%s", pk->over, pk->over, pk->over,
			      hint.data);
	}
	buf_release(&row);
	buf_release(&hint);
	return n;
}

/*
 * The keys of row (bound to the pick's variable) into key[], each in
 * the unit of the first row's (unit[]; first: set them). Returns 0, 1
 * when the row does not pass "where", or -1 after an error.
 */
static int
pick_keys(struct modeldoc_eval *ev, const struct item *it, const char *row,
	  double *key, struct unit *unit, int first)
{
	const struct pick *pk = it->pick;
	struct bind b = { .ev = ev, .var = pk->var, .row = row };
	struct expr_env env;
	struct value v = { 0 };
	struct buf ua = BUF_INIT, ub = BUF_INIT;
	size_t k;
	int ret = 0;

	modeleval_env(&b, &env);
	if (pk->where) {
		if (expr_eval(pk->where, &env, &v))
			return -1;
		ret = value_truthy(&v) ? 0 : 1;
		value_release(&v);
	}
	for (k = 0; k < pk->nkeys && !ret; k++) {
		const struct expr *e = pk->key[k];

		if (expr_eval(e, &env, &v))
			return -1;
		if (v.type != VALUE_NUMBER) {
			ret = modeldoc_error(ev->doc, expr_loc(e)->off,
					expr_loc(e)->len, "a key of a pick is a "
					"number, and this gives the text '%s' "
					"(row %s)", v.text, row);
		} else if (first) {
			unit[k] = v.unit;
			key[k] = v.num;
		} else if (!unit_same_dim(&v.unit, &unit[k]) ||
			   v.unit.calendar != unit[k].calendar) {
			value_unit_text(&v, &ua);
			unit_format(&ub, &unit[k]);
			ret = modeldoc_error(ev->doc, expr_loc(e)->off,
					expr_loc(e)->len, "this key is in %s "
					"for row %s, and in %s for the rows "
					"before: the rows cannot be compared",
					ua.data, row, ub.data);
		} else {
			key[k] = v.unit.scale == unit[k].scale ? v.num :
				 v.num * (v.unit.scale / unit[k].scale);
		}
		value_release(&v);
	}
	buf_release(&ua);
	buf_release(&ub);
	return ret;
}

/*
 * A pick: of the rows of its prefixes that pass "where", the one with
 * the largest (smallest) first key, ties broken by the next key, then
 * by the rows' order (the first wins); its quantities are copied under
 * the pick's name (copy_row()). No such row: no quantities, and no
 * error (an early edition without a phone). Returns 0, 1 when nothing
 * was picked, or -1 after an error.
 */
int
modelpick_eval(struct modeldoc_eval *ev, const struct item *it)
{
	const struct pick *pk = it->pick;
	struct buf rows = BUF_INIT, best = BUF_INIT, row = BUF_INIT;
	struct bind b = { .ev = ev };
	struct expr_env env;
	struct unit unit[PICK_KEYS_MAX];
	double key[PICK_KEYS_MAX], top[PICK_KEYS_MAX];
	struct value v = { 0 };
	const char *p;
	long n;
	int ret = -1;

	modeleval_env(&b, &env);
	env.missing_ok = 1;
	if (registry_has(ev->reg, it->name)) {
		modeldoc_error(ev->doc, it->off, it->len, "'%s' is already a "
			  "quantity or a prefix of some: a pick names new "
			  "ones", it->name);
		goto out;
	}
	if (modeleval_push(ev, it, it->name))
		goto out;
	if (it->when) {
		ret = expr_eval(it->when, &env, &v);
		if (ret < 0)
			goto popped;
		ret = ret == 0 && value_truthy(&v) ? -1 : 1;
		value_release(&v);
		if (ret == 1)
			goto popped;
	}
	ret = -1;
	if ((n = pick_rows(ev, it, &rows)) < 0)
		goto popped;
	for (p = rows.data; *p; p += strcspn(p, "\n")) {
		size_t k;
		int r;

		buf_reset(&row);
		p++;
		buf_add(&row, p, strcspn(p, "\n"));
		r = pick_keys(ev, it, row.data, key, unit, !best.len);
		if (r < 0)
			goto popped;
		if (r)
			continue;
		for (k = 0; best.len && k < pk->nkeys; k++)
			if (key[k] != top[k])
				break;
		if (best.len && (k == pk->nkeys ||
				 (key[k] > top[k]) == pk->smallest))
			continue;
		buf_reset(&best);
		buf_addstr(&best, row.data);
		memcpy(top, key, sizeof(key));
	}
	/* Chosen: copying the row is no loop (modeldoc_need()). */
	modeleval_pop(ev);
	ret = best.len ? copy_row(ev, it, best.data) : 1;
	goto out;
popped:
	modeleval_pop(ev);
out:
	buf_release(&rows);
	buf_release(&best);
	buf_release(&row);
	return ret;
}
