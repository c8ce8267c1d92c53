/*
 * "Did you mean" for every stage: the closest of a set of names to one
 * that is not known. Reads and writes nothing but its arguments.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "suggest.h"
#include "xalloc.h"
#include "banned.h"

/*
 * The most edits a kept name may be from the query: a third of its
 * length and two, but never more than this, so that a long unknown
 * name costs work in proportion to its length, not to its square.
 */
#define MAX_EDITS 16

/*
 * The distance from a (la bytes) to b (lb bytes) when it is at most max,
 * else max + 1: only the cells within max of the diagonal are computed
 * (any path through another costs more), and the work stops at a row
 * whose every cell is past max. O(min(la, lb) * max) time.
 */
static size_t
distance_within(const char *a, size_t la, const char *b, size_t lb,
		size_t max)
{
	size_t big = max + 1, i, j, lo, hi, low, d = big;
	size_t *row0, *row1, *row2, *tmp;

	if ((la > lb ? la - lb : lb - la) > max)
		return big;
	row0 = xcalloc(lb + 1, sizeof(size_t));
	row1 = xcalloc(lb + 1, sizeof(size_t));
	row2 = xcalloc(lb + 1, sizeof(size_t));
	for (j = 0; j <= lb; j++)
		row1[j] = j <= max ? j : big;
	for (i = 1; i <= la; i++) {
		lo = i > max ? i - max : 1;
		hi = lb < i + max ? lb : i + max;
		row2[0] = i <= max ? i : big;
		/* Beside the band: read by the next row, never below it. */
		row2[lo - 1] = lo > 1 ? big : row2[0];
		if (hi < lb)
			row2[hi + 1] = big;
		low = row2[0];
		for (j = lo; j <= hi; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t best = row1[j - 1] + cost;

			if (row1[j] + 1 < best)
				best = row1[j] + 1;
			if (row2[j - 1] + 1 < best)
				best = row2[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && row0[j - 2] + 1 < best)
				best = row0[j - 2] + 1;
			row2[j] = best < big ? best : big;
			if (row2[j] < low)
				low = row2[j];
		}
		tmp = row0, row0 = row1, row1 = row2, row2 = tmp;
		if (low > max)
			goto out;
	}
	d = row1[lb] < big ? row1[lb] : big;
out:
	free(row0);
	free(row1);
	free(row2);
	return d;
}

/* Optimal string alignment distance (Damerau-Levenshtein, restricted). */
size_t
suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	/* Never more than la + lb edits: the whole table, exactly. */
	return distance_within(a, la, b, lb, la + lb);
}

void
suggest_init(struct suggest *s, const char *name, const char **out,
	     size_t max)
{
	s->name = name;
	s->len = strlen(name);
	s->limit = s->len / 3 + 2;
	if (s->limit > MAX_EDITS)
		s->limit = MAX_EDITS;
	s->out = out;
	s->max = max;
	s->n = 0;
	s->score = max ? xcalloc(max, sizeof(*s->score)) : NULL;
}

void
suggest_add(struct suggest *s, const char *cand)
{
	size_t d, k, len = strlen(cand), max = s->limit;

	if (!s->max)
		return;
	for (k = 0; k < s->n; k++)
		if (!strcmp(s->out[k], cand))
			return;
	/*
	 * Only a name that could still be shown is measured: within one
	 * edit of the closest so far (suggest_end()), and closer than the
	 * last kept when all max are.
	 */
	if (s->n && s->score[0] + 1 < max)
		max = s->score[0] + 1;
	if (s->n == s->max) {
		if (!s->score[s->n - 1])
			return;
		if (s->score[s->n - 1] - 1 < max)
			max = s->score[s->n - 1] - 1;
	}
	if (s->len >= 3 && len > s->len && strstr(cand, s->name)) {
		/*
		 * A name that contains the query is a good guess too: it
		 * is as many insertions away as it is longer.
		 */
		d = len - s->len;
		if (d > 1)
			d = 1 + d / 8;
	} else {
		d = distance_within(s->name, s->len, cand, len, max);
	}
	if (d > max)
		return;
	for (k = s->n; k > 0 && s->score[k - 1] > d; k--)
		if (k < s->max) {
			s->out[k] = s->out[k - 1];
			s->score[k] = s->score[k - 1];
		}
	if (k < s->max) {
		s->out[k] = cand;
		s->score[k] = d;
		if (s->n < s->max)
			s->n++;
	}
}

size_t
suggest_end(struct suggest *s)
{
	size_t i, n = s->n;

	/* Keep only the best guesses: within one edit of the closest. */
	for (i = 1; i < n; i++)
		if (s->score[i] > s->score[0] + 1)
			n = i;
	free(s->score);
	s->score = NULL;
	s->n = 0;
	return n;
}

void
suggest_hint(struct buf *out, const char *const *near, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf_addf(out, "%s'%s'", i ? (i + 1 == n ? " or " : ", ") :
			 "; did you mean ", near[i]);
	if (n)
		buf_addch(out, '?');
}
