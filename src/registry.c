/*
 * The quantity registry between the model and every output stage. Holds
 * copies of all strings; an open-addressing hash table maps names to
 * quantities.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "hash.h"
#include "registry.h"
#include "xalloc.h"
#include "banned.h"

struct registry {
	struct quantity **q;	/* insertion order */
	uint64_t *hashes;	/* of their names */
	size_t n, cap, hcap;
	size_t *slots;		/* index + 1 into q; 0 is empty */
	size_t nslots;		/* a power of two */
};

struct registry *
registry_new(void)
{
	struct registry *reg = xcalloc(1, sizeof(*reg));

	reg->nslots = 64;
	reg->slots = xcalloc(reg->nslots, sizeof(*reg->slots));
	return reg;
}

static void
quantity_free(struct quantity *q)
{
	size_t i;

	free(q->name);
	free(q->text);
	free(q->unit);
	free(q->formula);
	free(q->expr);
	free(q->note);
	free(q->symbol);
	for (i = 0; i < q->ninputs; i++)
		free(q->inputs[i]);
	free(q->inputs);
	free(q->source);
	free(q->origin);
	free(q);
}

void
registry_free(struct registry *reg)
{
	size_t i;

	if (!reg)
		return;
	for (i = 0; i < reg->n; i++)
		quantity_free(reg->q[i]);
	free(reg->q);
	free(reg->hashes);
	free(reg->slots);
	free(reg);
}

/* Names are short and come from our code and checked ids: no adversary. */
static uint64_t
hash_n(const char *s, size_t len)
{
	return hash_bytes(0, s, len);
}

static uint64_t
hash(const char *s)
{
	return hash_n(s, strlen(s));
}

/*
 * The slot holding the name of len bytes at name, or the empty slot
 * where it would go; h is its hash. Names are compared only when their
 * hashes are equal.
 */
static size_t
find_slot_n(const struct registry *reg, const char *name, size_t len,
	    uint64_t h)
{
	size_t mask = reg->nslots - 1, i = (size_t)h & mask, k;

	while ((k = reg->slots[i]) &&
	       (reg->hashes[k - 1] != h ||
		strncmp(reg->q[k - 1]->name, name, len) ||
		reg->q[k - 1]->name[len]))
		i = (i + 1) & mask;
	return i;
}

static size_t
find_slot(const struct registry *reg, const char *name, uint64_t h)
{
	return find_slot_n(reg, name, strlen(name), h);
}

static void
rehash(struct registry *reg)
{
	size_t i;

	free(reg->slots);
	reg->nslots *= 2;
	reg->slots = xcalloc(reg->nslots, sizeof(*reg->slots));
	for (i = 0; i < reg->n; i++)
		reg->slots[find_slot(reg, reg->q[i]->name, reg->hashes[i])] =
			i + 1;
}

/*
 * Names go into HTML ids and links unescaped, so the registry holds no
 * other: they are made by the model from checked ids.
 */
static int
valid_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '.' || *s == '_' ||
		      *s == '-'))
			return 0;
	return 1;
}

static struct quantity *
add(struct registry *reg, const char *name, const char *unit,
    const char *formula, const char *inputs, const char *source,
    const char *origin)
{
	struct quantity *q;
	uint64_t h = hash(name);
	size_t slot = find_slot(reg, name, h), cap = 0;
	const char *p;

	if (reg->slots[slot]) {
		error("quantity '%s' is defined twice", name);
		return NULL;
	}
	if (!valid_name(name))
		BUG("quantity name '%s' is not [A-Za-z0-9._-]+", name);
	q = xcalloc(1, sizeof(*q));
	q->name = xstrdup(name);
	q->unit = xstrdup(unit ? unit : "");
	q->formula = xstrdup(formula ? formula : "");
	q->note = xstrdup(formula ? formula : "");
	/* Units from the code parse; one from data was checked by the model. */
	q->dim_ok = !unit_parse(q->unit, &q->dim, NULL);
	q->source = xstrdup(source ? source : "");
	q->origin = origin ? xstrdup(origin) : NULL;
	for (p = inputs ? inputs : ""; *p;) {
		size_t len = strcspn(p, " ");

		if (!len) {
			p++;
			continue;
		}
		if (!reg->slots[find_slot_n(reg, p, len, hash_n(p, len))])
			BUG("input '%.*s' of '%s' is not in the registry",
			    (int)len, p, name);
		q->inputs = xgrow(q->inputs, &cap, q->ninputs + 1,
				  sizeof(*q->inputs));
		q->inputs[q->ninputs++] = xstrndup(p, len);
		p += len;
	}
	reg->q = xgrow(reg->q, &reg->cap, reg->n + 1, sizeof(*reg->q));
	reg->hashes = xgrow(reg->hashes, &reg->hcap, reg->n + 1,
			    sizeof(*reg->hashes));
	reg->hashes[reg->n] = h;
	reg->q[reg->n++] = q;
	reg->slots[slot] = reg->n;
	/* Half full at most: probes stay short. */
	if (reg->n * 2 > reg->nslots)
		rehash(reg);
	return q;
}

struct quantity *
registry_add_num(struct registry *reg, const char *name, double value,
		 const char *unit, const char *formula, const char *inputs,
		 const char *source, const char *origin)
{
	struct quantity *q;

	if (!isfinite(value)) {
		error("quantity '%s' is not a finite number (%s); check its "
		      "inputs: %s", name, formula ? formula : "no formula",
		      inputs && *inputs ? inputs : "none");
		return NULL;
	}
	q = add(reg, name, unit, formula, inputs, source, origin);
	if (q) {
		q->type = Q_NUMBER;
		q->value = value;
	}
	return q;
}

struct quantity *
registry_add_text(struct registry *reg, const char *name, const char *text,
		  const char *formula, const char *inputs, const char *source,
		  const char *origin)
{
	struct quantity *q = add(reg, name, "", formula, inputs, source,
				 origin);

	if (q) {
		q->type = Q_TEXT;
		q->text = xstrdup(text);
	}
	return q;
}

void
registry_set_expr(struct quantity *q, const char *expr, const char *note)
{
	struct buf b = BUF_INIT;

	free(q->expr);
	free(q->note);
	free(q->formula);
	q->expr = xstrdup(expr);
	q->note = xstrdup(note ? note : "");
	buf_addstr(&b, expr);
	if (note && *note)
		buf_addf(&b, " (%s)", note);
	q->formula = buf_detach(&b, NULL);
}

void
registry_set_symbol(struct registry *reg, const char *name,
		    const char *symbol)
{
	size_t slot = find_slot(reg, name, hash(name));

	if (reg->slots[slot]) {
		struct quantity *q = reg->q[reg->slots[slot] - 1];

		free(q->symbol);
		q->symbol = xstrdup(symbol);
	}
}

const struct quantity *
registry_get(const struct registry *reg, const char *name)
{
	size_t slot = find_slot(reg, name, hash(name));

	return reg->slots[slot] ? reg->q[reg->slots[slot] - 1] : NULL;
}

size_t
registry_index(const struct registry *reg, const char *name)
{
	size_t slot = find_slot(reg, name, hash(name));

	return reg->slots[slot] ? reg->slots[slot] - 1 : SIZE_MAX;
}

int
registry_has(const struct registry *reg, const char *name)
{
	size_t i, n = strlen(name);

	if (registry_get(reg, name))
		return 1;
	/* A scan: has() guards a few dozen slots of a report. */
	for (i = 0; i < reg->n; i++)
		if (!strncmp(reg->q[i]->name, name, n) &&
		    reg->q[i]->name[n] == '.')
			return 1;
	return 0;
}

double
registry_num(const struct registry *reg, const char *name)
{
	const struct quantity *q = registry_get(reg, name);

	if (!q || q->type != Q_NUMBER)
		BUG("'%s' is not a number in the registry", name);
	return q->value;
}

size_t
registry_count(const struct registry *reg)
{
	return reg->n;
}

const struct quantity *
registry_at(const struct registry *reg, size_t i)
{
	if (i >= reg->n)
		BUG("quantity %zu of %zu", i, reg->n);
	return reg->q[i];
}

/* Optimal string alignment distance (Damerau-Levenshtein, restricted). */
static size_t
edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, d;
	size_t *row0, *row1, *row2, *tmp;

	row0 = xcalloc(lb + 1, sizeof(size_t));
	row1 = xcalloc(lb + 1, sizeof(size_t));
	row2 = xcalloc(lb + 1, sizeof(size_t));
	for (j = 0; j <= lb; j++)
		row1[j] = j;
	for (i = 1; i <= la; i++) {
		row2[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t best = row1[j - 1] + cost;

			if (row1[j] + 1 < best)
				best = row1[j] + 1;
			if (row2[j - 1] + 1 < best)
				best = row2[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && row0[j - 2] + 1 < best)
				best = row0[j - 2] + 1;
			row2[j] = best;
		}
		tmp = row0, row0 = row1, row1 = row2, row2 = tmp;
	}
	d = row1[lb];
	free(row0);
	free(row1);
	free(row2);
	return d;
}

size_t
registry_suggest(const struct registry *reg, const char *name,
		 const char **out, size_t max)
{
	size_t *score, i, n = 0, len = strlen(name);
	size_t limit = len / 3 + 2;

	if (!max)
		return 0;
	score = xcalloc(max, sizeof(*score));
	for (i = 0; i < reg->n; i++) {
		const char *cand = reg->q[i]->name;
		size_t d = edit_distance(name, cand), k;

		/* A name that contains the query is a good guess too. */
		if (len >= 3 && strstr(cand, name) && d > 1)
			d = 1 + (strlen(cand) - len) / 8;
		if (d > limit)
			continue;
		for (k = n; k > 0 && score[k - 1] > d; k--)
			if (k < max) {
				out[k] = out[k - 1];
				score[k] = score[k - 1];
			}
		if (k < max) {
			out[k] = cand;
			score[k] = d;
			if (n < max)
				n++;
		}
	}
	/* Keep only the best guesses: within one edit of the closest. */
	for (i = 1; i < n; i++)
		if (score[i] > score[0] + 1)
			n = i;
	free(score);
	return n;
}
