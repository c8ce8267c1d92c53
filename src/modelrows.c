/*
 * The model document's rows: the sets of rows it names ("NAME = rows r
 * in SOURCE ..."), its trends ("NAME = trend r in SOURCE ...": least
 * squares of log2 of a value against time, fit.c) and its datasets
 * ("data NAME for r in SOURCE", the figures' tables), each evaluated
 * over the rows of a data file (rows.h, through the evaluation's
 * file_rows()), of another set, of a family of the registry, or of a
 * range of numbers. Reads the document's items and the registry; writes
 * quantities and datasets, nothing else. Knows no project's files.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "dataset.h"
#include "diag.h"
#include "expr.h"
#include "fit.h"
#include "hash.h"
#include "ladder.h"
#include "modeldoc.h"
#include "modeldocint.h"
#include "registry.h"
#include "suggest.h"
#include "units.h"
#include "xalloc.h"
#include "banned.h"

/* A range's points at most (linspace, logspace). */
#define RANGE_MAX 100000

/* One set of rows of this run: its item, its source's rows, its own. */
struct view {
	size_t item;
	struct modeldoc_eval *ev;
	struct expr_rows src;	/* the rows it is taken from */
	size_t *idx;		/* its rows: indexes into src */
	size_t n;
	struct expr_rows rows;	/* as a reduction's */
	char *what;		/* "series.top500 (data/top500.csv)" */
	/*
	 * Each row's value, evaluated once: its trends (three windows), its
	 * datasets and reductions read it again and again. A number in the
	 * unit of the first (a row of another unit, or a text, turns the
	 * memo off).
	 */
	double *num;
	unsigned char *state;	/* per row: VIEW_NOT_YET, _NUMBER, _MISSING */
	struct value first;	/* the first memoized value, its unit */
	int have_first, memo_off;
	/*
	 * Each row's year and time (NAN: no date), read once for its
	 * trends (trend_dates()): each of three windows read them by name
	 * from every row.
	 */
	double *dates;
};

enum { VIEW_NOT_YET, VIEW_NUMBER, VIEW_MISSING };

/* Whether v is a number alone, owning and borrowing nothing but a unit. */
static int
memo_plain(const struct value *v)
{
	return v->type == VALUE_NUMBER && !v->text && !v->origin &&
	       !v->source && !v->q;
}

/* Whether v (a row's number) can be kept as w's first was. */
static int
memo_fits(const struct view *w, const struct value *v)
{
	return memo_plain(v) && v->literal == w->first.literal &&
	       v->utext == w->first.utext &&
	       v->unit.scale == w->first.unit.scale &&
	       v->unit.calendar == w->first.unit.calendar &&
	       !memcmp(v->unit.exp, w->first.unit.exp, sizeof(v->unit.exp));
}

struct modelrows {
	struct view **v;	/* each its own: rows point at it */
	size_t n, cap;
};

/* The view of item i, or NULL when it is not evaluated yet. */
static struct view *
view_of(struct modeldoc_eval *ev, size_t i)
{
	size_t k;

	for (k = 0; ev->rows && k < ev->rows->n; k++)
		if (ev->rows->v[k]->item == i)
			return ev->rows->v[k];
	return NULL;
}

/* An environment with var bound to row i of rows, over the document's. */
static void
bind_row(struct modeldoc_eval *ev, struct bind *b, struct expr_env *env,
	 struct expr_bound *bound, const char *var,
	 const struct expr_rows *rows, size_t i)
{
	memset(b, 0, sizeof(*b));
	b->ev = ev;
	modeleval_env(b, env);
	*bound = (struct expr_bound){ var, rows, i, NULL };
	env->bound = bound;
}

/* rows' get() of a view: its value and label, else its source's. */
static int
view_get(void *ctx, size_t i, const char *rest, struct value *out)
{
	struct view *w = ctx;
	const struct item *it = &w->ev->doc->items[w->item];
	const struct expr *e = !strcmp(rest, "value") ? it->value :
			       !strcmp(rest, "label") ? it->label : NULL;
	struct bind b;
	struct expr_env env;
	struct expr_bound bound;
	struct value v;
	int ret;

	if (i >= w->n)
		return e || w->src.get(w->src.ctx, SIZE_MAX, rest, NULL) != 2 ?
		       1 : 2;
	if (!e)
		return w->src.get(w->src.ctx, w->idx[i], rest, out);
	if (e == it->value && !w->memo_off && w->state &&
	    w->state[i] != VIEW_NOT_YET) {
		if (w->state[i] == VIEW_MISSING)
			return 1;
		if (out) {
			*out = w->first;
			out->num = w->num[i];
		}
		return 0;
	}
	bind_row(w->ev, &b, &env, &bound, it->rule->var, &w->src, w->idx[i]);
	env.missing_ok = 1;
	memset(&v, 0, sizeof(v));
	ret = expr_eval(e, &env, &v);
	if (e == it->value && !w->memo_off && ret >= 0) {
		if (!w->state) {
			w->state = xcalloc(w->n, 1);
			w->num = xcalloc(w->n, sizeof(*w->num));
		}
		if (!ret && !w->have_first) {
			w->have_first = 1;
			if (memo_plain(&v))
				w->first = v;
			else
				w->memo_off = 1;
		} else if (!ret && !memo_fits(w, &v)) {
			w->memo_off = 1;
		}
		if (!w->memo_off) {
			w->state[i] = ret ? VIEW_MISSING : VIEW_NUMBER;
			w->num[i] = v.num;
		}
	}
	if (out && !ret)
		*out = v;
	else if (!ret)
		value_release(&v);
	return ret;
}

static const char *
view_where(void *ctx, size_t i, struct buf *origin)
{
	struct view *w = ctx;

	return w->src.where(w->src.ctx, i < w->n ? w->idx[i] : SIZE_MAX,
			    origin);
}

static void
view_names(void *ctx, struct suggest *sg)
{
	struct view *w = ctx;
	const struct item *it = &w->ev->doc->items[w->item];

	if (it->value)
		suggest_add(sg, "value");
	if (it->label)
		suggest_add(sg, "label");
	if (w->src.names)
		w->src.names(w->src.ctx, sg);
}

/*
 * The rows called name: a set of rows of the document (evaluated now if
 * it is not yet), else a data file's. Returns 0 and *out, 1 when name
 * is neither, -1 after an error.
 */
int
modelrows_find(struct modeldoc_eval *ev, const char *name,
	       struct expr_rows *out)
{
	const struct modeldoc *doc = ev->doc;
	struct view *w;
	size_t i = doc->n, k;

	for (k = 0; k < doc->nviews; k++)
		if (!strcmp(doc->items[doc->views[k]].name, name))
			i = doc->views[k];
	if (i < doc->n) {
		if (!(w = view_of(ev, i))) {
			if (ev->state[i] == 1)
				return modeldoc_error(doc, doc->items[i].off,
						      doc->items[i].len, "'%s' "
						      "ranges over itself",
						      name);
			if (modeldoc_need(ev, name) < 0)
				return -1;
			w = view_of(ev, i);
		}
		/* A set whose "when:" is false has no rows. */
		if (!w) {
			memset(out, 0, sizeof(*out));
			return 1;
		}
		*out = w->rows;
		return 0;
	}
	return ev->file_rows ? ev->file_rows(ev->ctx, name, out) : 1;
}

/* "unknown rows 'x'" at a rule's source, with the closest names. */
static int
unknown_rows(struct modeldoc_eval *ev, const struct item *it,
	     const struct rowrule *r)
{
	const struct modeldoc *doc = ev->doc;
	const char *near[3];
	struct suggest sg;
	struct buf hint = BUF_INIT;
	size_t i, n;

	suggest_init(&sg, r->source, near, 3);
	for (i = 0; i < doc->n; i++)
		if (doc->items[i].kind == ITEM_ROWS)
			suggest_add(&sg, doc->items[i].name);
	n = suggest_end(&sg);
	suggest_hint(&hint, near, n);
	modeldoc_error(doc, r->source_off, r->source_len, "unknown rows '%s': "
		       "no data file has that prefix in the catalogue, and no "
		       "'%s = rows ...' of the document names it%s", r->source,
		       r->source, hint.data);
	(void)it;
	buf_release(&hint);
	return -1;
}

/* A rule's rows: the source's, resolved through the family. */
static int
rule_rows(struct modeldoc_eval *ev, const struct item *it,
	  struct expr_rows *out)
{
	int ret = modelrows_find(ev, it->rule->source, out);

	return ret == 1 ? unknown_rows(ev, it, it->rule) : ret;
}

/*
 * A number of one expression, in the unit want (NULL: any), into *x.
 * Returns 0, or -1 after an error.
 */
static int
number_of(struct modeldoc_eval *ev, const struct expr *e,
	  const struct expr_env *env, const char *want, double *x)
{
	struct value v = { 0 };
	struct unit u;
	int ret = expr_eval(e, env, &v);

	if (ret)
		return -1;
	if (v.type != VALUE_NUMBER) {
		ret = error_at(expr_loc(e), "expected a number, got the text "
			       "'%s'", v.text);
	} else if (want && !v.literal && (unit_parse(want, &u, NULL) ||
					  !unit_same_dim(&v.unit, &u) ||
					  u.calendar != v.unit.calendar)) {
		ret = error_at(expr_loc(e), "expected a number in %s", want);
	} else {
		*x = v.num;
	}
	(void)ev;
	value_release(&v);
	return ret;
}

/* Whether the row bound in env passes cond (NULL: every row). */
static int
passes(const struct expr *cond, const struct expr_env *env)
{
	struct value v = { 0 };
	int ret, t;

	if (!cond)
		return 1;
	if ((ret = expr_eval(cond, env, &v)))
		return ret < 0 ? -1 : 0;
	t = value_truthy(&v);
	value_release(&v);
	return t;
}

/* The checks of it over row i of rows (a set's source): 0, or -1. */
static int
row_check(struct modeldoc_eval *ev, const struct item *it,
	  const struct expr_rows *rows, size_t i)
{
	struct bind b;
	struct expr_env env;
	struct expr_bound bound;
	struct buf where = BUF_INIT, org = BUF_INIT;
	const struct check *c;
	int ret;

	bind_row(ev, &b, &env, &bound, it->rule->var, rows, i);
	ret = modeleval_check(it, &env, &c);
	if (ret <= 0)
		return ret;
	rows->where(rows->ctx, i, &org);
	buf_addf(&where, "the row of %s: ", org.data);
	modeleval_check_failed(ev, c, &env, it->rule->var, org.data,
			       where.data);
	buf_release(&where);
	buf_release(&org);
	return -1;
}

/* ------------------------------------------------------------- memo */

/*
 * modeldoc.h: for each set whose checks read their row alone, the rows
 * (src->ids) they held for, the longest list seen. A long history
 * checked again by each of 19 editions was 24% of every edition's
 * instructions at 1e5 rows (3.7G of 15.6G).
 */
struct modeldoc_memo {
	const struct modeldoc *doc;	/* whose items these are */
	struct checked {
		size_t item;
		size_t *ids, n;
	} *v;
	size_t n, cap;
};

struct modeldoc_memo *
modeldoc_memo_new(void)
{
	return xcalloc(1, sizeof(struct modeldoc_memo));
}

void
modeldoc_memo_free(struct modeldoc_memo *memo)
{
	size_t k;

	if (!memo)
		return;
	for (k = 0; k < memo->n; k++)
		free(memo->v[k].ids);
	free(memo->v);
	free(memo);
}

/* The memo's rows for item i, or NULL; afresh for another document. */
static struct checked *
checked_of(struct modeldoc_eval *ev, size_t i)
{
	struct modeldoc_memo *m = ev->memo;
	size_t k;

	if (!m)
		return NULL;
	if (m->doc != ev->doc) {
		for (k = 0; k < m->n; k++)
			free(m->v[k].ids);
		m->n = 0;
		m->doc = ev->doc;
	}
	for (k = 0; k < m->n; k++)
		if (m->v[k].item == i)
			return &m->v[k];
	return NULL;
}

/*
 * Whether the checks of it read its row alone: no reduction, and no
 * name but VAR.NAME (VAR.prev.NAME among them).
 */
static int
checks_row_alone(const struct item *it)
{
	struct buf names = BUF_INIT;
	size_t k, vl = strlen(it->rule->var);
	const char *p;
	int alone = 1;

	buf_addch(&names, '\n');
	for (k = 0; k < it->nchecks && alone; k++) {
		alone = !expr_reduces(it->checks[k].cond);
		expr_inputs(it->checks[k].cond, &names);
	}
	for (p = names.data + 1; alone && *p; p += strcspn(p, "\n") + 1)
		alone = !strncmp(p, it->rule->var, vl) && p[vl] == '.';
	buf_release(&names);
	return alone;
}

/*
 * Whether the checks of item i held for src's rows in an earlier
 * evaluation of the run: src's rows are the first of those, in order,
 * so that each row and the row before it are the same.
 */
static int
rows_checked(struct modeldoc_eval *ev, size_t i, const struct expr_rows *src)
{
	const struct checked *c = checked_of(ev, i);

	return c && src->ids && src->n <= c->n &&
	       !memcmp(src->ids, c->ids, src->n * sizeof(*src->ids));
}

/* Keeps that the checks of item i held for every row of src. */
static void
note_checked(struct modeldoc_eval *ev, size_t i, const struct expr_rows *src)
{
	struct modeldoc_memo *m = ev->memo;
	struct checked *c;

	if (!m || !src->ids || !checks_row_alone(&ev->doc->items[i]))
		return;
	if (!(c = checked_of(ev, i))) {
		m->v = xgrow(m->v, &m->cap, m->n + 1, sizeof(*m->v));
		c = &m->v[m->n++];
		*c = (struct checked){ i, NULL, 0 };
	} else if (c->n >= src->n) {
		return;
	}
	free(c->ids);
	c->ids = xreallocarray(NULL, src->n ? src->n : 1, sizeof(*c->ids));
	memcpy(c->ids, src->ids, src->n * sizeof(*c->ids));
	c->n = src->n;
}

/*
 * "records by KEY" of the rows idx[0..*n) of src (in time order): of
 * each year the row with the largest KEY (the first of equals), kept
 * when it is at least every row kept before; idx thinned in place.
 * Returns 0, or -1 after an error.
 */
static int
keep_records(struct modeldoc_eval *ev, const struct item *it,
	     const struct expr_rows *src, size_t *idx, size_t *n)
{
	struct bind b;
	struct expr_env env;
	struct expr_bound bound;
	struct value yv = { 0 };
	double *key = xcalloc(*n ? *n : 1, sizeof(*key)), top = -INFINITY;
	double *year = xcalloc(*n ? *n : 1, sizeof(*year));
	size_t i, j, k = 0, best;
	int ret = 0;

	for (i = 0; i < *n && !ret; i++) {
		bind_row(ev, &b, &env, &bound, it->rule->var, src, idx[i]);
		ret = number_of(ev, it->rule->records, &env, NULL, &key[i]);
		if (!ret && src->get(src->ctx, idx[i], "year", &yv)) {
			ret = modeldoc_error(ev->doc, it->expr_off,
					     it->expr_len, "'records by' "
					     "needs rows with a date, and "
					     "these have none");
		} else if (!ret) {
			year[i] = yv.num;
			value_release(&yv);
		}
	}
	for (i = 0; i < *n && !ret; i = j) {
		best = i;
		for (j = i + 1; j < *n && year[j] == year[i]; j++)
			if (key[j] > key[best])
				best = j;
		if (key[best] < top)
			continue;
		top = key[best];
		idx[k++] = idx[best];
	}
	if (!ret)
		*n = k;
	free(key);
	free(year);
	return ret;
}

/*
 * A set of rows: its source's rows (each checked), those where COND
 * holds, thinned to the records; then NAME.id, which makes it a row of
 * the families over its prefix. Returns 0, 1 when its "when:" is false,
 * or -1 after errors.
 */
int
modelrows_view(struct modeldoc_eval *ev, size_t i)
{
	const struct item *it = &ev->doc->items[i];
	struct modelrows *mr;
	struct view *w;
	struct expr_rows src;
	struct bind b;
	struct expr_env env;
	struct expr_bound bound;
	struct buf what = BUF_INIT, name = BUF_INIT;
	size_t *idx = NULL, n = 0, r, before = diag_errors();
	const char *last = strrchr(it->name, '.');
	int t, check;

	if (rule_rows(ev, it, &src))
		return -1;
	check = it->nchecks && !rows_checked(ev, i, &src);
	idx = xcalloc(src.n ? src.n : 1, sizeof(*idx));
	for (r = 0; r < src.n; r++) {
		if (check && row_check(ev, it, &src, r))
			continue;
		bind_row(ev, &b, &env, &bound, it->rule->var, &src, r);
		if ((t = passes(it->rule->where, &env)) < 0)
			break;
		if (t)
			idx[n++] = r;
		/* A million rows: Ctrl-C stops them. */
		if (r % 4096 == 0 && diag_interrupted())
			break;
	}
	if (diag_errors() == before && it->rule->records &&
	    keep_records(ev, it, &src, idx, &n))
		n = 0;
	if (diag_errors() != before || diag_interrupted()) {
		free(idx);
		return -1;
	}
	if (check)
		note_checked(ev, i, &src);
	if (!ev->rows)
		ev->rows = xcalloc(1, sizeof(*ev->rows));
	mr = ev->rows;
	mr->v = xgrow(mr->v, &mr->cap, mr->n + 1, sizeof(*mr->v));
	w = mr->v[mr->n++] = xcalloc(1, sizeof(*w));
	w->item = i;
	w->ev = ev;
	w->src = src;
	w->idx = idx;
	w->n = n;
	buf_addf(&what, "%s (%s)", it->name, src.what ? src.what : "rows");
	w->what = buf_detach(&what, NULL);
	w->rows = (struct expr_rows){ n, w, view_get, view_where,
				      view_names, w->what, src.file, NULL };
	buf_addf(&name, "%s.id", it->name);
	/* Its row of the families over its prefix. */
	if (!registry_add_text(ev->reg, name.data, last ? last + 1 : it->name,
			       it->a[A_NOTE].text ? it->a[A_NOTE].text :
			       "a set of rows", NULL, src.what ? src.what :
			       "derived here", NULL)) {
		buf_release(&name);
		return -1;
	}
	buf_release(&name);
	return 0;
}

void
modelrows_free(struct modeldoc_eval *ev)
{
	size_t k;

	if (!ev->rows)
		return;
	for (k = 0; k < ev->rows->n; k++) {
		free(ev->rows->v[k]->idx);
		free(ev->rows->v[k]->what);
		free(ev->rows->v[k]->num);
		free(ev->rows->v[k]->state);
		free(ev->rows->v[k]->dates);
		free(ev->rows->v[k]);
	}
	free(ev->rows->v);
	free(ev->rows);
	ev->rows = NULL;
}

/*
 * What a trend fits, in words: its "of" expression, else its set's
 * value: (r.rmax_flops), without the rows' variable (rmax_flops).
 */
static void
trend_value_text(struct modeldoc_eval *ev, const struct item *it,
		 struct buf *out)
{
	const struct modeldoc *doc = ev->doc;
	const char *text = NULL, *var = it->rule->var, *p;
	size_t len = 0, k, vl;

	if (it->rule->of) {
		text = doc->f->data + expr_loc(it->rule->of)->off;
		len = expr_loc(it->rule->of)->len;
	}
	for (k = 0; !text && k < doc->nviews; k++) {
		const struct item *w = &doc->items[doc->views[k]];

		if (!strcmp(w->name, it->rule->source) && w->a[A_VALUE].text) {
			text = w->a[A_VALUE].text;
			len = strlen(text);
			var = w->rule->var;
		}
	}
	if (!text) {
		buf_addstr(out, "value");
		return;
	}
	vl = strlen(var);
	for (p = text; p < text + len; p++) {
		if (!strncmp(p, var, vl) && p[vl] == '.' &&
		    (p == text || !modeldoc_name_char(p[-1]))) {
			p += vl;
			continue;
		}
		buf_addch(out, *p);
	}
}

/* The trend's quantities NAME.* from f, its values in unit. */
static int
add_trend(struct modeldoc_eval *ev, const struct item *it,
	  const struct fit *f, const char *unit, const char *src)
{
	/* what, or what, the rows' short name (1) or the value (2), post. */
	static const struct {
		const char *part, *unit, *what;
		int ins;
		const char *post;
	} out[] = {
		{ "n", "", "points of ", 1, " in the window" },
		{ "from", "year", "first year in the window", 0, NULL },
		{ "to", "year", "last year in the window", 0, NULL },
		{ "slope", "1/yr", "least-squares slope of log2(", 2,
		  ") against time" },
		{ "intercept", "", "log2(value) at year 0 on the fitted "
		  "line: log2(v) = intercept + slope x year", 0, NULL },
		{ "r2", "", "coefficient of determination of the fit", 0,
		  NULL },
		{ "slope_se", "1/yr", "standard error of the slope, from "
		  "the scatter of the points about the line (n - 2 degrees "
		  "of freedom)", 0, NULL },
		{ "intercept_se", "", "standard error of the intercept (n - 2 "
		  "degrees of freedom)", 0, NULL },
		{ "value_to", NULL, "value of the fitted line at the last year "
		  "of the window", 0, NULL },
		{ "t95", "", "Student's t for a two-sided 95% interval at n - "
		  "2 degrees of freedom: the slope's range is slope +- t95 x "
		  "slope_se", 0, NULL },
	};
	const double v[] = { (double)f->n, floor(f->t0), floor(f->t1), f->b,
			     f->a, f->r2, f->se_b, f->se_a,
			     fit_value_at(f, floor(f->t1)), f->t95 };
	struct buf name = BUF_INIT, what = BUF_INIT, val = BUF_INIT;
	const char *of = strrchr(it->rule->source, '.');
	size_t k;
	int ret = 0;

	trend_value_text(ev, it, &val);
	for (k = 0; k < sizeof(out) / sizeof(out[0]) && !ret; k++) {
		if (isnan(v[k]))
			continue;
		buf_reset(&name);
		buf_addf(&name, "%s.%s", it->name, out[k].part);
		buf_reset(&what);
		buf_addstr(&what, out[k].what);
		if (out[k].ins)
			buf_addf(&what, "%s%s", out[k].ins == 2 ? val.data :
				 of ? of + 1 : it->rule->source, out[k].post);
		if (out[k].ins && it->a[A_NOTE].text)
			buf_addf(&what, " (%s)", it->a[A_NOTE].text);
		if (!registry_add_num(ev->reg, name.data, v[k], out[k].unit ?
				      out[k].unit : unit, what.data, NULL, src,
				      NULL))
			ret = modeldoc_error(ev->doc, it->off, it->len, "'%s' "
					     "could not be added (see above)",
					     name.data);
	}
	buf_release(&name);
	buf_release(&what);
	buf_release(&val);
	return ret;
}

/*
 * One point of a trend: the row bound in env, if it is in the window
 * [lo, hi] of calendar years, passes "where" and is new by "distinct";
 * its time and value into *t and *v (in the first point's unit, which
 * *u gets). Returns 1, 0 for a row left out, -1 after an error.
 */
/*
 * The year and the time of each row of src, two by two (NAN: no date):
 * a set's kept with its rows for every trend over it, others read into
 * *own (which the caller frees).
 */
static const double *
trend_dates(const struct expr_rows *src, double **own)
{
	double **at = src->get == view_get ?
		      &((struct view *)src->ctx)->dates : own;
	struct value x = { 0 };
	size_t r;

	if (*at)
		return *at;
	*at = xreallocarray(NULL, src->n ? 2 * src->n : 1, sizeof(double));
	for (r = 0; r < src->n; r++) {
		/* A row with a year has a time: both are its date's. */
		(*at)[2 * r] = (*at)[2 * r + 1] = NAN;
		if (src->get(src->ctx, r, "year", &x))
			continue;
		(*at)[2 * r] = x.num;
		value_release(&x);
		if (!src->get(src->ctx, r, "time", &x)) {
			(*at)[2 * r + 1] = x.num;
			value_release(&x);
		}
	}
	return *at;
}

static int
trend_point(struct modeldoc_eval *ev, const struct item *it,
	    const struct expr_env *env, const struct expr_rows *src,
	    const double *dates, size_t r, struct strset *seen,
	    struct unit *u, char **utext, int first, double *t, double *v)
{
	const struct rowrule *rule = it->rule;
	struct value x = { 0 };
	struct buf key = BUF_INIT, org = BUF_INIT;
	int ret;

	if (isnan(dates[2 * r]))
		return modeldoc_error(ev->doc, rule->source_off,
				      rule->source_len, "a trend needs rows "
				      "with a date, and %s has none",
				      src->what);
	if ((ret = passes(rule->where, env)) <= 0)
		return ret;
	if (rule->distinct) {
		if ((ret = expr_eval(rule->distinct, env, &x)))
			return ret < 0 ? -1 : 0;
		value_key(&x, &key);
		value_release(&x);
		ret = strset_add(seen, key.data);
		buf_release(&key);
		if (ret)
			return 0;
	}
	*t = dates[2 * r + 1];
	if (rule->of)
		ret = expr_eval(rule->of, env, &x);
	else if ((ret = src->get(src->ctx, r, "value", &x)) == 2)
		ret = modeldoc_error(ev->doc, it->expr_off, it->expr_len,
				     "'%s' has no value: give the trend 'of "
				     "EXPRESSION'", src->what);
	if (ret)
		return ret < 0 ? -1 : 0;
	/* The row's "file:line" only for a message: not for every row. */
	if (x.type != VALUE_NUMBER || !(x.num > 0)) {
		src->where(src->ctx, r, &org);
		ret = modeldoc_error(ev->doc, it->expr_off, it->expr_len, "a "
				     "trend fits the logarithm of its values, "
				     "and the row of %s gives %s", org.data,
				     x.type == VALUE_NUMBER ? "one not above "
				     "zero" : "a text");
	} else if (first && !it->a[A_UNIT].text) {
		if (!x.utext)
			ret = modeldoc_error(ev->doc, it->off, it->len, "the "
					     "unit of '%s' is computed: give "
					     "the trend a line 'unit: ...' for "
					     "its values", it->name);
		*u = x.unit;
		*utext = x.utext ? xstrdup(x.utext) : NULL;
		*v = x.num;
		ret = ret ? ret : 1;
	} else if (!unit_same_dim(&x.unit, u) ||
		   x.unit.calendar != u->calendar) {
		src->where(src->ctx, r, &org);
		ret = modeldoc_error(ev->doc, it->expr_off, it->expr_len, "the "
				     "row of %s gives a value in another "
				     "dimension than the rows before",
				     org.data);
	} else {
		*v = x.unit.scale == u->scale ? x.num :
		     x.num * (x.unit.scale / u->scale);
		ret = 1;
	}
	value_release(&x);
	buf_release(&org);
	return ret;
}

/*
 * A trend: least squares of log2 of the value against time (fit.c) over
 * the rows of its source in its window [from, to] of calendar years
 * where COND holds (with "distinct KEY", each KEY once), when it has
 * the points and years "needs:" asks. Returns 0 (none when it has not),
 * 1 when "when:" is false, or -1 after errors.
 */
int
modelrows_trend(struct modeldoc_eval *ev, size_t i)
{
	const struct item *it = &ev->doc->items[i];
	const struct rowrule *rule = it->rule;
	struct expr_rows src;
	struct bind b;
	struct expr_env env;
	struct expr_bound bound;
	struct strset seen = { NULL, 0, 0 };
	struct unit u;
	struct fit f;
	char *utext = NULL;
	double lo = -INFINITY, hi = INFINITY, *t = NULL, *v = NULL;
	double *own = NULL;
	const double *dates;
	size_t r, n = 0;
	int ret = 0, p;

	if (rule_rows(ev, it, &src))
		return -1;
	bind_row(ev, &b, &env, &bound, rule->var, &src, 0);
	env.bound = NULL;
	if ((rule->from && number_of(ev, rule->from, &env, "year", &lo)) ||
	    (rule->to && number_of(ev, rule->to, &env, "year", &hi)))
		return -1;
	t = xcalloc(src.n ? src.n : 1, sizeof(*t));
	v = xcalloc(src.n ? src.n : 1, sizeof(*v));
	unit_one(&u);
	/* Its values in the unit it declares, else the first row's. */
	if (it->a[A_UNIT].text) {
		u = it->dim;
		utext = xstrdup(it->a[A_UNIT].text);
	}
	dates = trend_dates(&src, &own);
	for (r = 0; r < src.n && !ret; r++) {
		/* A row dated outside the window: nothing to bind. */
		if (dates[2 * r] < lo || dates[2 * r] > hi)
			continue;
		bind_row(ev, &b, &env, &bound, rule->var, &src, r);
		p = trend_point(ev, it, &env, &src, dates, r, &seen, &u,
				&utext, !n && !it->a[A_UNIT].text, &t[n],
				&v[n]);
		if (p < 0)
			ret = -1;
		else
			n += (size_t)p;
		if (r % 4096 == 0 && diag_interrupted())
			ret = -1;
	}
	if (!ret && !fit_log2(t, v, n, -INFINITY, INFINITY, &f) &&
	    f.n >= it->need_points && f.t1 - f.t0 >= it->need_years)
		ret = add_trend(ev, it, &f, utext ? utext : "",
				src.file ? src.file : src.what);
	free(t);
	free(v);
	free(own);
	free(utext);
	strset_release(&seen);
	return ret;
}

/* A range's point i of n: from A to B, evenly or on a log scale. */
struct range {
	double a, b;
	size_t n;
	int log;
	struct unit unit;
	const char *utext;	/* borrowed, as a value's */
};

static int
range_get(void *ctx, size_t i, const char *rest, struct value *out)
{
	const struct range *g = ctx;
	double k = (double)i, m = (double)(g->n - 1);

	if (*rest)
		return 2;
	if (i >= g->n)
		return 1;
	if (out) {
		memset(out, 0, sizeof(*out));
		out->type = VALUE_NUMBER;
		/* A start and a step: 0.5 + 0.05 i, 1e-18 10^(0.2 i). */
		out->num = g->log ? g->a * pow(10, k * (log10(g->b / g->a) / m)) :
			   g->a + k * ((g->b - g->a) / m);
		/* The ends exactly, whatever pow() makes of them. */
		if (i + 1 == g->n)
			out->num = g->b;
		out->unit = g->unit;
		out->utext = g->utext;
	}
	return 0;
}

static const char *
range_where(void *ctx, size_t i, struct buf *origin)
{
	(void)ctx;
	buf_addf(origin, "point %zu", i + 1);
	return "derived here";
}

/* A data block's range: its ends (one unit) and its number of points. */
static int
range_of(struct modeldoc_eval *ev, const struct item *it, struct range *g)
{
	const struct rowrule *rule = it->rule;
	struct bind b;
	struct expr_env env;
	struct value a = { 0 }, z = { 0 };
	double n;
	int ret = -1;

	memset(&b, 0, sizeof(b));
	b.ev = ev;
	modeleval_env(&b, &env);
	if (expr_eval(rule->from, &env, &a) || expr_eval(rule->to, &env, &z) ||
	    number_of(ev, rule->count, &env, NULL, &n))
		goto out;
	/* The ends in the dataset's unit: written bare, or converted. */
	if (it->a[A_UNIT].text && a.type == VALUE_NUMBER &&
	    z.type == VALUE_NUMBER) {
		struct value *end[] = { &a, &z };
		size_t k;

		for (k = 0; k < 2; k++) {
			if (!end[k]->literal &&
			    !unit_same_dim(&end[k]->unit, &it->dim))
				continue;
			if (!end[k]->literal)
				end[k]->num *= end[k]->unit.scale /
					       it->dim.scale;
			end[k]->unit = it->dim;
			end[k]->utext = it->a[A_UNIT].text;
		}
	}
	if (a.type != VALUE_NUMBER || z.type != VALUE_NUMBER ||
	    !unit_same_dim(&a.unit, &z.unit)) {
		modeldoc_error(ev->doc, rule->source_off, rule->source_len, "a "
			       "range's ends are two numbers of one unit");
		goto out;
	}
	if (!(n >= 2 && n <= RANGE_MAX && n == floor(n)) ||
	    (rule->range == 2 && !(a.num > 0 && z.num > 0))) {
		modeldoc_error(ev->doc, rule->source_off, rule->source_len,
			       "a range has 2 to %d points%s", RANGE_MAX,
			       rule->range == 2 ? ", and a logspace's ends "
			       "are above zero" : "");
		goto out;
	}
	g->a = a.num;
	g->b = a.unit.scale == z.unit.scale ? z.num :
	       z.num * (z.unit.scale / a.unit.scale);
	g->n = (size_t)n;
	g->log = rule->range == 2;
	g->unit = a.unit;
	g->utext = a.utext;
	ret = 0;
out:
	value_release(&a);
	value_release(&z);
	return ret;
}

/* A dataset's rows as collected: values, label, sort key, its order. */
struct drow {
	double *v;
	char *label;
	double key;
	size_t seq;
	int placed;
};

static int
by_key(const void *x, const void *y)
{
	const struct drow *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

/* The column items of dataset item i: from i + 1 while they are its. */
static size_t
data_columns(const struct modeldoc *doc, size_t i, size_t *label)
{
	size_t j;

	*label = SIZE_MAX;
	for (j = i + 1; j < doc->n && doc->items[j].kind == ITEM_COLUMN &&
	     doc->items[j].data == i; j++)
		if (!strcmp(doc->items[j].name, "label"))
			*label = j;
	return j - i - 1;
}

/*
 * One row of a dataset, the row bound in env: its columns (missing
 * values NAN), its label and its key. Returns 1, 0 when "where" leaves
 * it out, -1 after an error.
 */
static int
data_row(struct modeldoc_eval *ev, size_t i, struct expr_env *env,
	 size_t nitems, size_t nv, size_t label, struct drow *row,
	 struct buf *units)
{
	const struct modeldoc *doc = ev->doc;
	const struct item *it = &doc->items[i];
	struct value v = { 0 };
	size_t j, c = 0;
	int ret;

	if ((ret = passes(it->rule->where, env)) <= 0)
		return ret;
	if (it->rule->by && number_of(ev, it->rule->by, env, NULL, &row->key))
		return -1;
	/* Room for the two columns of "place:". */
	row->v = xcalloc(nv + 2, sizeof(*row->v));
	env->missing_ok = 1;
	for (j = i + 1; j <= i + nitems; j++) {
		const struct item *col = &doc->items[j];

		ret = expr_eval(col->expr, env, &v);
		if (ret < 0)
			break;
		if (j == label) {
			if (!ret)
				row->label = xstrdup(v.type == VALUE_TEXT ?
						     v.text : "");
		} else if (ret || v.type != VALUE_NUMBER) {
			row->v[c++] = NAN;
		} else {
			row->v[c] = col->any_unit ? v.num :
				    v.num * (v.unit.scale / col->dim.scale);
			/* Each column's unit: its own, else its values'. */
			if (col->any_unit && !units[c].len) {
				if (v.utext)
					buf_addstr(&units[c], v.utext);
				else if (!unit_dimensionless(&v.unit) ||
					 v.unit.scale != 1)
					value_unit_text(&v, &units[c]);
			}
			c++;
		}
		value_release(&v);
		ret = 0;
	}
	env->missing_ok = 0;
	return ret < 0 ? -1 : 1;
}

/* The index of column name among the ncols of dataset item i, or -1. */
static long
column_index(const struct modeldoc *doc, size_t i, size_t ncols,
	     size_t label, const char *name)
{
	size_t j, c = 0;

	for (j = i + 1; j <= i + ncols; j++) {
		if (j == label)
			continue;
		if (!strcmp(doc->items[j].name, name))
			return (long)c;
		c++;
	}
	return -1;
}

/*
 * "place: X, Y [where COND]": where the label of each placed row goes
 * (ladder.h), into the two columns after the data's (label_X and
 * label_Y); the placed rows first, sorted by Y, the others after them
 * in their order, their labels' places missing. Reorders rows.
 */
static int
place_labels(struct modeldoc_eval *ev, size_t i, struct drow *rows, size_t n,
	     size_t ncols)
{
	const struct item *it = &ev->doc->items[i];
	struct ladder_machine *m = xcalloc(n ? n : 1, sizeof(*m));
	struct drow *sorted = xcalloc(n ? n : 1, sizeof(*sorted));
	size_t label, nitems, k, np = 0, at = 0;
	long x, y;

	nitems = data_columns(ev->doc, i, &label);
	x = column_index(ev->doc, i, nitems, label, it->place_x);
	y = column_index(ev->doc, i, nitems, label, it->place_y);
	if (x < 0 || y < 0) {
		free(m);
		free(sorted);
		return modeldoc_error(ev->doc, it->a[A_PLACE].off,
				      it->a[A_PLACE].len, "no column '%s' in "
				      "the dataset", x < 0 ? it->place_x :
				      it->place_y);
	}
	for (k = 0; k < n; k++)
		if (rows[k].placed) {
			m[np].bits = rows[k].v[x];
			m[np].ops = rows[k].v[y];
			m[np++].seq = k;
		}
	ladder_place(m, np);
	for (k = 0; k < np; k++) {
		sorted[at] = rows[m[k].seq];
		sorted[at].v[ncols] = m[k].label_bits;
		sorted[at++].v[ncols + 1] = m[k].label_ops;
	}
	for (k = 0; k < n; k++)
		if (!rows[k].placed) {
			sorted[at] = rows[k];
			sorted[at].v[ncols] = sorted[at].v[ncols + 1] = NAN;
			at++;
		}
	/* A dataset without rows has rows NULL, which memcpy() may not get. */
	if (n)
		memcpy(rows, sorted, n * sizeof(*rows));
	free(m);
	free(sorted);
	return 0;
}

/*
 * The rows of a dataset's source into *rows (each with room for ncols
 * values and two more), bound and evaluated: a range's points, a data
 * file's or a set's rows, or the rows of a family of the registry.
 * Returns the number of rows, or -1 after errors.
 */
static long
data_rows(struct modeldoc_eval *ev, size_t i, size_t nitems, size_t nv,
	  size_t label, struct drow **rows, struct buf *units)
{
	const struct item *it = &ev->doc->items[i];
	const struct rowrule *rule = it->rule;
	struct expr_rows src;
	struct range g = { 0 };
	struct bind b;
	struct expr_env env;
	struct expr_bound bound;
	struct buf row = BUF_INIT;
	size_t k, n = 0, total = 0, cap = 0;
	int ret = 0, r, family = 0, thinned;

	if (rule->range) {
		if (range_of(ev, it, &g))
			return -1;
		src = (struct expr_rows){ g.n, &g, range_get, range_where,
					  NULL, "a range", NULL, NULL };
		total = g.n;
	} else if ((r = modelrows_find(ev, rule->source, &src)) < 0) {
		return -1;
	} else if (r == 1) {
		/* A family of the registry: PREFIX.X for each PREFIX.X.id. */
		family = 1;
		total = registry_nids(ev->reg);
	} else {
		total = src.n;
	}
	/*
	 * Every row is the dataset's (no "where", "by" or "place:"): only
	 * those a plot shows are made, every k-th and the last, as
	 * modelrows_data() would thin them (a million-row history made all
	 * of them, in every edition, for 2,000).
	 */
	thinned = !rule->where && !rule->by && !it->place_x && !family;
	for (k = 0; k < total && !ret; k++) {
		struct drow d = { 0 };

		if (thinned && !dataset_shows(k, total, DATASET_PLOT_ROWS))
			continue;

		if (family) {
			if (!modeldoc_row_id(rule->source,
					     registry_id_at(ev->reg, k)->name,
					     &row))
				continue;
			memset(&b, 0, sizeof(b));
			b.ev = ev;
			b.var = rule->var;
			b.row = row.data;
			modeleval_env(&b, &env);
		} else {
			bind_row(ev, &b, &env, &bound, rule->var, &src, k);
		}
		d.seq = n;
		r = data_row(ev, i, &env, nitems, nv, label, &d, units);
		if (r < 0)
			ret = -1;
		if (r > 0 && it->place_where)
			d.placed = passes(it->place_where, &env) > 0;
		else if (r > 0)
			d.placed = it->place_x != NULL;
		if (r > 0) {
			*rows = xgrow(*rows, &cap, n + 1, sizeof(**rows));
			(*rows)[n++] = d;
		} else {
			free(d.v);
			free(d.label);
		}
	}
	buf_release(&row);
	return ret ? -1 : (long)n;
}

/*
 * A dataset (data NAME for VAR in SOURCE): a row for each row of its
 * source where COND holds (sorted by KEY, stably, with "by"), a column
 * for each of its definitions (label: the row's label, text), thinned to
 * DATASET_PLOT_ROWS rows; added to ev->ds, for the figure scripts. Nothing
 * without ev->ds. Returns 0, or -1 after errors.
 */
int
modelrows_data(struct modeldoc_eval *ev, size_t i)
{
	const struct modeldoc *doc = ev->doc;
	const struct item *it = &doc->items[i];
	size_t label, ncols = data_columns(doc, i, &label), nv, k, j, c;
	struct buf *units;
	struct drow *rows = NULL;
	const char **cols, **ucols;
	struct dataset *ds;
	long n;
	int ret = 0;

	if (!ev->ds)
		return 0;
	nv = ncols - (label != SIZE_MAX);
	units = xcalloc(nv + 2, sizeof(*units));
	for (k = 0; k < nv + 2; k++)
		buf_init(&units[k]);
	n = data_rows(ev, i, ncols, nv, label, &rows, units);
	if (n < 0) {
		ret = -1;
		goto out;
	}
	if (it->rule->by && n > 1)
		qsort(rows, (size_t)n, sizeof(*rows), by_key);
	if (it->place_x && place_labels(ev, i, rows, (size_t)n, nv)) {
		ret = -1;
		goto out;
	}
	cols = xcalloc(nv + 2, sizeof(*cols));
	ucols = xcalloc(nv + 2, sizeof(*ucols));
	for (j = i + 1, c = 0; j <= i + ncols; j++) {
		if (j == label)
			continue;
		ucols[c] = doc->items[j].any_unit ? units[c].data :
			   doc->items[j].a[A_UNIT].text;
		cols[c++] = doc->items[j].name;
	}
	if (it->place_x) {
		buf_addf(&units[nv], "label_%s", it->place_x);
		buf_addf(&units[nv + 1], "label_%s", it->place_y);
		cols[nv] = units[nv].data;
		cols[nv + 1] = units[nv + 1].data;
		for (j = i + 1, c = 0; j <= i + ncols; j++) {
			if (j == label)
				continue;
			if (!strcmp(doc->items[j].name, it->place_x))
				ucols[nv] = ucols[c];
			if (!strcmp(doc->items[j].name, it->place_y))
				ucols[nv + 1] = ucols[c];
			c++;
		}
	}
	ds = dataset_add(ev->ds, it->name, it->a[A_NOTE].text ?
			 it->a[A_NOTE].text : it->name, cols, ucols,
			 nv + (it->place_x ? 2 : 0));
	/*
	 * A plot shows no more than this: every k-th row and the last (all
	 * of them when data_rows() made only those).
	 */
	for (k = 0; k < (size_t)n; k++)
		if (dataset_shows(k, (size_t)n, DATASET_PLOT_ROWS))
			dataset_row(ds, rows[k].v, rows[k].label);
	free(cols);
	free(ucols);
out:
	for (k = 0; n > 0 && k < (size_t)n; k++) {
		free(rows[k].v);
		free(rows[k].label);
	}
	free(rows);
	for (k = 0; k < nv + 2; k++)
		buf_release(&units[k]);
	free(units);
	return ret;
}
