#ifndef SUGGEST_H
#define SUGGEST_H

#include <stddef.h>

struct buf;

/*
 * The closest names to one that is not known, for "did you mean" hints:
 * quantity names (registry_suggest()), dataset names, column names,
 * prefixes. Candidates are fed one at a time; the best (by optimal
 * string alignment distance, and names that contain the query) are
 * kept, in the order they came for equal scores.
 *
 *	struct suggest s;
 *	suggest_init(&s, name, near, 3);
 *	for (...) suggest_add(&s, cand);
 *	n = suggest_end(&s);
 */
struct suggest {
	const char *name;	/* the unknown name (borrowed) */
	size_t len, limit;	/* its length; the farthest kept */
	const char **out;	/* the caller's array of max names */
	size_t *score;
	size_t n, max;
};

/* Starts a search for the up to max names closest to name into out[]. */
void suggest_init(struct suggest *s, const char *name, const char **out,
		  size_t max);
/*
 * Offers a candidate: kept (the pointer, borrowed: it must live until
 * the caller is done with out[]) when it is among the closest so far.
 * A candidate equal to one kept already is not kept twice.
 */
void suggest_add(struct suggest *s, const char *cand);
/*
 * Ends the search: returns how many names out[] holds, best first,
 * only those within one edit of the closest. Frees what s holds.
 */
size_t suggest_end(struct suggest *s);

/*
 * The number of edits (insert, delete, replace, swap two neighbours)
 * from a to b: optimal string alignment distance.
 */
size_t suggest_distance(const char *a, const char *b);

/*
 * Appends the hint for the n names of near: "; did you mean 'a'?",
 * "; did you mean 'a' or 'b'?", "; did you mean 'a', 'b' or 'c'?";
 * nothing when n is 0.
 */
void suggest_hint(struct buf *out, const char *const *near, size_t n);

#endif
