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
#include "mempool.h"
#include "registry.h"
#include "suggest.h"
#include "xalloc.h"
#include "banned.h"

struct sym_key {
	const char *last;	/* the pattern's last part (borrowed) */
	size_t i;		/* its index in the table */
};

/*
 * Where the quantities and their strings live (mempool.h): chunks of
 * 64 KiB, freed all at once with the registry. A malloc() and a free()
 * of each (a dozen a quantity) were 7% of a whole report's
 * instructions.
 */
#define POOL_CHUNK 65536

/* A quantity with the registry it is in (for the setters of q). */
struct entry {
	struct quantity q;	/* first: a quantity is its entry */
	struct registry *reg;
};

struct registry {
	struct mempool *pool;
	struct quantity **q;	/* insertion order */
	/* Of their names, by index: hash and length, so that a name is
	 * compared only with one of its length and hash (memcmp()). */
	struct key {
		uint64_t h;
		size_t len;
	} *keys;
	size_t n, cap, hcap;
	size_t *slots;		/* index + 1 into q; 0 is empty */
	size_t nslots;		/* a power of two */
	char *because;		/* registry_set_because(), or NULL */
	/* registry_set_symbols()'s tables (copies), for later adds too */
	const char *const (*sym_table)[2];
	size_t nsym;
	const char *const (*sym_aliases)[2];
	size_t nsym_aliases;
	/*
	 * The patterns by their last part, then in table order, those
	 * ending in "*" apart (in table order): a name is matched only
	 * against the patterns that end in its last part or in "*".
	 */
	struct sym_key *sym_keys;
	size_t nsym_keys;
	size_t *sym_star;
	size_t nsym_star;
	/*
	 * The hashes of every dotted prefix of a name ("current",
	 * "current.phone" of "current.phone.year"), 0 for empty, each
	 * with the first quantity under it: a has() needs no scan (one of
	 * every name, for the prefixes asked, was 1.9% of a whole
	 * report's instructions).
	 */
	struct pfx {
		uint64_t h;
		size_t i;	/* into q */
	} *pfx;
	size_t npfx, pfxslots;	/* a power of two, or 0 */
	/*
	 * Each unit as written, parsed once: its text (in the pool, shared
	 * by the quantities in it), hash and dimension; open addressing.
	 * A unit_parse() of each quantity's was 0.8% of a report's
	 * instructions.
	 */
	struct unit_entry {
		char *text;
		uint64_t h;
		struct unit dim;
		int ok;
	} *units;
	size_t nunits, unitslots;	/* a power of two, or 0 */
	/* The indexes into q of the names ending in ".id": the rows of the
	 * model document's families (registry_id_at()). */
	size_t *ids;
	size_t nids, idcap;
};

static void set_symbol_by_table(const struct registry *reg,
				struct quantity *q);

/* s in q's registry's pool, or NULL for NULL. */
static char *
q_strdup(const struct quantity *q, const char *s)
{
	return s ? mempool_strdup(((const struct entry *)q)->reg->pool, s) :
	       NULL;
}

struct registry *
registry_new(void)
{
	struct registry *reg = xcalloc(1, sizeof(*reg));

	reg->pool = xcalloc(1, sizeof(*reg->pool));
	reg->pool->chunk = POOL_CHUNK;
	reg->nslots = 64;
	reg->slots = xcalloc(reg->nslots, sizeof(*reg->slots));
	return reg;
}

void
registry_free(struct registry *reg)
{
	if (!reg)
		return;
	mempool_release(reg->pool);
	free(reg->pool);
	free(reg->q);
	free(reg->keys);
	free(reg->slots);
	free(reg->because);
	free(reg->sym_keys);
	free(reg->sym_star);
	free(reg->pfx);
	free(reg->units);
	free(reg->ids);
	free(reg);
}

void
registry_set_because(struct registry *reg, const char *names)
{
	free(reg->because);
	reg->because = names && *names ? xstrdup(names) : NULL;
}

/* Names are short and come from our code and checked ids: no adversary. */
static uint64_t
hash_n(const char *s, size_t len)
{
	return hash_name(s, len);
}

/*
 * The slot holding the name of len bytes at name, or the empty slot
 * where it would go; h is its hash. Names are compared only when their
 * hashes and lengths are equal.
 */
static size_t
find_slot_n(const struct registry *reg, const char *name, size_t len,
	    uint64_t h)
{
	size_t mask = reg->nslots - 1, i = (size_t)h & mask, k;

	while ((k = reg->slots[i]) &&
	       (reg->keys[k - 1].h != h || reg->keys[k - 1].len != len ||
		memcmp(reg->q[k - 1]->name, name, len)))
		i = (i + 1) & mask;
	return i;
}

/* The slot of name (hashed here), or the empty one where it would go. */
static size_t
slot_of(const struct registry *reg, const char *name)
{
	size_t len = strlen(name);

	return find_slot_n(reg, name, len, hash_n(name, len));
}

static void
rehash(struct registry *reg)
{
	size_t i;

	free(reg->slots);
	reg->nslots *= 2;
	reg->slots = xcalloc(reg->nslots, sizeof(*reg->slots));
	for (i = 0; i < reg->n; i++)
		reg->slots[find_slot_n(reg, reg->q[i]->name, reg->keys[i].len,
				       reg->keys[i].h)] =
			i + 1;
}

/*
 * What each byte is in a name: 1 a letter, a digit, '_' or '-'; 2 a
 * dot; 0 any other (the NUL too).
 */
#define NAME_RANGE(a) [a] = 1, [a + 1] = 1, [a + 2] = 1, [a + 3] = 1, \
	[a + 4] = 1, [a + 5] = 1, [a + 6] = 1, [a + 7] = 1, [a + 8] = 1, \
	[a + 9] = 1
static const unsigned char name_bytes[256] = {
	NAME_RANGE('0'), NAME_RANGE('A'), NAME_RANGE('K'), NAME_RANGE('U'),
	NAME_RANGE('a'), NAME_RANGE('k'), NAME_RANGE('u'),
	['_'] = 1, ['-'] = 1, ['.'] = 2,
};

const char *
registry_name_problem(const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *part = p;

	if (!*s)
		return "a name cannot be empty";
	/* A part at a time: its bytes, then its end. */
	for (;;) {
		while (name_bytes[*p] == 1)
			p++;
		if (p == part && (!*p || *p == '.'))
			return "a name's parts, between its dots, cannot be "
			       "empty";
		if (p - part > REGISTRY_PART_MAX)
			return "a part of a name, between its dots, is at "
			       "most " REGISTRY_PART_MAX_S " characters";
		if (!*p)
			return NULL;
		if (*p != '.')
			return "a name is letters, digits, '_' and '-', in "
			       "parts joined by dots";
		part = ++p;
	}
}

/*
 * Adds h, the hash of a prefix of quantity i's name, to the prefix set
 * unless it is there (0 stands for empty: 1 takes its place).
 */
static void
pfx_put(struct registry *reg, uint64_t h, size_t qi)
{
	size_t i, mask;

	h = h ? h : 1;
	if ((reg->npfx + 1) * 2 > reg->pfxslots) {
		struct pfx *old = reg->pfx;
		size_t n = reg->pfxslots;

		reg->pfxslots = n ? 2 * n : 1024;
		reg->pfx = xcalloc(reg->pfxslots, sizeof(*reg->pfx));
		reg->npfx = 0;
		for (i = 0; i < n; i++)
			if (old[i].h)
				pfx_put(reg, old[i].h, old[i].i);
		free(old);
	}
	mask = reg->pfxslots - 1;
	for (i = (size_t)h & mask; reg->pfx[i].h; i = (i + 1) & mask)
		if (reg->pfx[i].h == h)
			return;
	reg->pfx[i].h = h;
	reg->pfx[i].i = qi;
	reg->npfx++;
}

/*
 * Whether a quantity's name starts with the n bytes at name and a dot.
 * 1 when the name may be such a prefix (a false yes is checked).
 */
static int
pfx_has(const struct registry *reg, const char *name, size_t n)
{
	uint64_t h = hash_n(name, n);
	size_t i, mask = reg->pfxslots - 1;

	if (!reg->pfxslots)
		return 0;
	h = h ? h : 1;
	for (i = (size_t)h & mask; reg->pfx[i].h; i = (i + 1) & mask) {
		const char *q;

		if (reg->pfx[i].h != h)
			continue;
		q = reg->q[reg->pfx[i].i]->name;
		if (!strncmp(q, name, n) && q[n] == '.')
			return 1;
		/* Two prefixes of one hash: a scan, for certain. */
		for (i = 0; i < reg->n; i++)
			if (!strncmp(reg->q[i]->name, name, n) &&
			    reg->q[i]->name[n] == '.')
				return 1;
		return 0;
	}
	return 0;
}

/* The entry of unit (as written), parsed the first time it is asked. */
static const struct unit_entry *
unit_of(struct registry *reg, const char *unit)
{
	size_t len = strlen(unit), i, mask;
	uint64_t h = hash_n(unit, len);
	struct unit_entry *u;

	if ((reg->nunits + 1) * 2 > reg->unitslots) {
		struct unit_entry *old = reg->units;
		size_t n = reg->unitslots;

		reg->unitslots = n ? 2 * n : 64;
		reg->units = xcalloc(reg->unitslots, sizeof(*reg->units));
		mask = reg->unitslots - 1;
		for (i = 0; i < n; i++) {
			size_t j;

			if (!old[i].text)
				continue;
			for (j = (size_t)old[i].h & mask; reg->units[j].text;
			     j = (j + 1) & mask)
				;
			reg->units[j] = old[i];
		}
		free(old);
	}
	mask = reg->unitslots - 1;
	for (i = (size_t)h & mask; reg->units[i].text; i = (i + 1) & mask)
		if (reg->units[i].h == h && !strcmp(reg->units[i].text, unit))
			return &reg->units[i];
	u = &reg->units[i];
	u->text = mempool_strndup(reg->pool, unit, len);
	u->h = h;
	u->ok = !unit_parse(unit, &u->dim, NULL);
	reg->nunits++;
	return u;
}

static struct quantity *
add(struct registry *reg, const char *name, const char *unit,
    const char *formula, const char *inputs, const char *source,
    const char *origin)
{
	const struct unit_entry *u;
	struct entry *e;
	struct quantity *q;
	size_t len = strlen(name), n = 1;
	uint64_t h = hash_n(name, len);
	size_t slot = find_slot_n(reg, name, len, h);
	const char *p;

	if (reg->slots[slot]) {
		error("quantity '%s' is defined twice", name);
		return NULL;
	}
	if (registry_name_problem(name))
		BUG("quantity name '%s': %s", name,
		    registry_name_problem(name));
	e = mempool_alloc(reg->pool, sizeof(*e), _Alignof(struct entry));
	memset(e, 0, sizeof(*e));
	e->reg = reg;
	q = &e->q;
	q->name = mempool_strdup(reg->pool, name);
	u = unit_of(reg, unit ? unit : "");
	q->unit = u->text;
	q->formula = mempool_strdup(reg->pool, formula ? formula : "");
	q->note = q->formula;
	/* Units from the code parse; one from data was checked by the model. */
	q->dim = u->dim;
	q->dim_ok = u->ok;
	q->source = mempool_strdup(reg->pool, source ? source : "");
	q->origin = q_strdup(q, origin);
	q->because = q_strdup(q, reg->because);
	for (p = inputs ? inputs : ""; *p; p++)
		n += *p == ' ';
	q->inputs = mempool_alloc(reg->pool, n * sizeof(*q->inputs),
			       _Alignof(char *));
	for (p = inputs ? inputs : ""; *p;) {
		size_t il = strcspn(p, " ");

		if (!il) {
			p++;
			continue;
		}
		if (!reg->slots[find_slot_n(reg, p, il, hash_n(p, il))])
			BUG("input '%.*s' of '%s' is not in the registry",
			    (int)il, p, name);
		q->inputs[q->ninputs++] = mempool_strndup(reg->pool, p, il);
		p += il;
	}
	reg->q = xgrow(reg->q, &reg->cap, reg->n + 1, sizeof(*reg->q));
	reg->keys = xgrow(reg->keys, &reg->hcap, reg->n + 1,
			  sizeof(*reg->keys));
	reg->keys[reg->n].h = h;
	reg->keys[reg->n].len = len;
	if (len > 3 && !strcmp(name + len - 3, ".id")) {
		reg->ids = xgrow(reg->ids, &reg->idcap, reg->nids + 1,
				 sizeof(*reg->ids));
		reg->ids[reg->nids++] = reg->n;
	}
	reg->q[reg->n++] = q;
	reg->slots[slot] = reg->n;
	for (p = strchr(name, '.'); p; p = strchr(p + 1, '.'))
		pfx_put(reg, hash_n(name, (size_t)(p - name)), reg->n - 1);
	set_symbol_by_table(reg, q);
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
		q->text = q_strdup(q, text);
	}
	return q;
}

void
registry_set_expr(struct quantity *q, const char *expr, const char *note)
{
	struct mempool *pool = ((struct entry *)q)->reg->pool;
	size_t el = strlen(expr), nl = note ? strlen(note) : 0;
	char *f;

	q->expr = mempool_strndup(pool, expr, el);
	q->note = nl ? mempool_strndup(pool, note, nl) :
		  mempool_strdup(pool, "");
	/* "expr (note)", unless it is that already */
	if (!strncmp(q->formula, expr, el) &&
	    (nl ? !strncmp(q->formula + el, " (", 2) &&
		  !strncmp(q->formula + el + 2, note, nl) &&
		  !strcmp(q->formula + el + 2 + nl, ")") :
		  !q->formula[el]))
		return;
	q->formula = f = mempool_alloc(pool, el + (nl ? nl + 3 : 0) + 1, 1);
	memcpy(f, expr, el);
	f[el] = '\0';
	if (nl) {
		memcpy(f + el, " (", 2);
		memcpy(f + el + 2, note, nl);
		memcpy(f + el + 2 + nl, ")", 2);
	}
}

int
registry_convert(struct quantity *q, const char *unit)
{
	struct unit u;

	if (q->type != Q_NUMBER || !q->dim_ok || unit_parse(unit, &u, NULL) ||
	    !unit_same_dim(&u, &q->dim) || u.calendar != q->dim.calendar)
		return -1;
	q->value = q->dim.scale == u.scale ? q->value :
		   q->value * (q->dim.scale / u.scale);
	q->dim = u;
	q->unit = q_strdup(q, unit);
	return 0;
}

void
registry_set_symbol(struct registry *reg, const char *name,
		    const char *symbol)
{
	registry_set_member_symbol(reg, name, symbol, NULL);
}

void
registry_set_member_symbol(struct registry *reg, const char *name,
			   const char *symbol, const char *row)
{
	size_t slot = slot_of(reg, name);

	if (reg->slots[slot])
		registry_set_symbol_of(reg->q[reg->slots[slot] - 1], symbol,
				       row);
}

void
registry_set_symbol_of(struct quantity *q, const char *symbol,
		       const char *row)
{
	q->symbol = q_strdup(q, symbol);
	q->row = q_strdup(q, row);
}

void
registry_set_because_of(struct quantity *q, const char *names)
{
	q->because = names && *names ? q_strdup(q, names) : NULL;
}

/* The length of the part that starts s: up to its dot or its end. */
static size_t
part_len(const char *s)
{
	return strcspn(s, ".");
}

int
registry_pattern_match(const char *pattern, const char *name,
		       const char **row, size_t *rowlen)
{
	const char *p = pattern, *s = name;

	*row = NULL;
	*rowlen = 0;
	for (;;) {
		size_t pl = part_len(p), sl = part_len(s);

		if (pl == 1 && *p == '*' && !*row) {
			if (!sl)
				return 0;
			*row = s;
			*rowlen = sl;
		} else if (pl != sl || memcmp(p, s, pl)) {
			return 0;
		}
		p += pl;
		s += sl;
		if (!*p || !*s)
			return !*p && !*s;
		p++;
		s++;
	}
}

/*
 * The first entry of the symbol table that name matches, or SIZE_MAX;
 * its row in *row, *rowlen. Only the patterns whose last part is the
 * name's or "*" can match: they are found by bisection and tried in
 * table order (a scan of every pattern with a strcmp() each, 2000 names
 * against 230 patterns and again through each alias: one edition ran
 * 230.9M instructions then, 222.6M now).
 */
static size_t
match_table(const struct registry *reg, const char *name, const char **row,
	    size_t *rowlen)
{
	const char *end = strrchr(name, '.');
	size_t lo = 0, hi = reg->nsym_keys, k, s = 0;

	end = end ? end + 1 : name;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(reg->sym_keys[mid].last, end) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	k = lo;
	/* Two lists in table order, merged. */
	for (;;) {
		int more = k < reg->nsym_keys &&
			   !strcmp(reg->sym_keys[k].last, end);
		size_t i;

		if (more && (s >= reg->nsym_star ||
			     reg->sym_keys[k].i < reg->sym_star[s]))
			i = reg->sym_keys[k++].i;
		else if (s < reg->nsym_star)
			i = reg->sym_star[s++];
		else
			return SIZE_MAX;
		if (registry_pattern_match(reg->sym_table[i][0], name, row,
					   rowlen))
			return i;
	}
}

/*
 * The number of leading parts of name that alias (a pattern) matches,
 * or 0: "current.*" matches 2 of "current.laptop.mass".
 */
static size_t
alias_parts(const char *alias, const char *name)
{
	const char *p = alias, *s = name;
	size_t n = 0;

	for (;;) {
		size_t pl = part_len(p), sl = part_len(s);

		if (!sl || (!(pl == 1 && *p == '*') &&
			    (pl != sl || memcmp(p, s, pl))))
			return 0;
		n++;
		p += pl;
		s += sl;
		if (!*p)
			return *s ? n : 0;	/* the family's part follows */
		if (!*s)
			return 0;
		p++;
		s++;
	}
}

/* Matches q through the alias {alias, family}; 1 when it took a symbol. */
static int
set_by_alias(const struct registry *reg, struct quantity *q,
	     const char *alias, const char *family)
{
	struct buf as = BUF_INIT, words = BUF_INIT;
	const char *rest = q->name, *row, *star;
	size_t k = alias_parts(alias, q->name), i, rowlen;
	int ret = 0;

	if (!k || !(star = strchr(family, '*')))
		return 0;
	for (i = 0; i < k; i++) {
		size_t l = part_len(rest);

		if (i)
			buf_addch(&words, ' ');
		buf_add(&words, rest, l);
		rest += l + 1;
	}
	/* "device.*" + "." + the rest: the row stands where '*' was. */
	buf_add(&as, family, (size_t)(star - family));
	buf_addch(&as, '*');
	buf_addf(&as, "%s.%s", star + 1, rest);
	i = match_table(reg, as.data, &row, &rowlen);
	if (i != SIZE_MAX && row && row == as.data + (star - family)) {
		q->symbol = mempool_strdup(reg->pool, reg->sym_table[i][1]);
		q->row = mempool_strdup(reg->pool, words.data);
		ret = 1;
	}
	buf_release(&as);
	buf_release(&words);
	return ret;
}

/* q's symbol from the tables of registry_set_symbols(), if it has none. */
static void
set_symbol_by_table(const struct registry *reg, struct quantity *q)
{
	const char *row;
	size_t j, t, rowlen;

	if (q->symbol || !reg->sym_table)
		return;
	t = match_table(reg, q->name, &row, &rowlen);
	if (t != SIZE_MAX) {
		q->symbol = mempool_strdup(reg->pool, reg->sym_table[t][1]);
		q->row = row ? mempool_strndup(reg->pool, row, rowlen) : NULL;
		return;
	}
	for (j = 0; j < reg->nsym_aliases; j++)
		if (set_by_alias(reg, q, reg->sym_aliases[j][0],
				 reg->sym_aliases[j][1]))
			return;
}

/* By last part, then by index: qsort() is not stable. */
static int
sym_key_cmp(const void *a, const void *b)
{
	const struct sym_key *x = a, *y = b;
	int c = strcmp(x->last, y->last);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* The n pairs of strings at table, copied into the pool. */
static const char *const (*
pool_pairs(struct mempool *pool, const char *const table[][2], size_t n))[2]
{
	const char *(*copy)[2] = mempool_alloc(pool, (n ? n : 1) *
					    sizeof(*copy), _Alignof(char *));
	size_t i;

	for (i = 0; i < n; i++) {
		copy[i][0] = mempool_strdup(pool, table[i][0]);
		copy[i][1] = mempool_strdup(pool, table[i][1]);
	}
	return (const char *const (*)[2])copy;
}

void
registry_set_symbols(struct registry *reg, const char *const table[][2],
		     size_t n, const char *const aliases[][2],
		     size_t naliases)
{
	size_t i;

	/*
	 * Copies: the claims take their symbols from them after the model
	 * document that gave them is freed.
	 */
	table = pool_pairs(reg->pool, table, n);
	aliases = pool_pairs(reg->pool, aliases, naliases);
	reg->sym_table = table;
	reg->nsym = n;
	free(reg->sym_keys);
	free(reg->sym_star);
	reg->sym_keys = xreallocarray(NULL, n ? n : 1, sizeof(*reg->sym_keys));
	reg->sym_star = xreallocarray(NULL, n ? n : 1, sizeof(*reg->sym_star));
	reg->nsym_keys = reg->nsym_star = 0;
	for (i = 0; i < n; i++) {
		const char *dot = strrchr(reg->sym_table[i][0], '.'),
			   *last = dot ? dot + 1 : reg->sym_table[i][0];

		if (!strcmp(last, "*")) {
			reg->sym_star[reg->nsym_star++] = i;
		} else {
			reg->sym_keys[reg->nsym_keys].last = last;
			reg->sym_keys[reg->nsym_keys++].i = i;
		}
	}
	qsort(reg->sym_keys, reg->nsym_keys, sizeof(*reg->sym_keys),
	      sym_key_cmp);
	reg->sym_aliases = aliases;
	reg->nsym_aliases = naliases;
	for (i = 0; i < reg->n; i++)
		set_symbol_by_table(reg, reg->q[i]);
}

const struct quantity *
registry_get(const struct registry *reg, const char *name)
{
	size_t slot = slot_of(reg, name);

	return reg->slots[slot] ? reg->q[reg->slots[slot] - 1] : NULL;
}

struct quantity *
registry_get_mut(struct registry *reg, const char *name)
{
	size_t slot = slot_of(reg, name);

	return reg->slots[slot] ? reg->q[reg->slots[slot] - 1] : NULL;
}

size_t
registry_index(const struct registry *reg, const char *name)
{
	size_t slot = slot_of(reg, name);

	return reg->slots[slot] ? reg->slots[slot] - 1 : SIZE_MAX;
}

int
registry_has(const struct registry *reg, const char *name)
{
	return registry_get(reg, name) || pfx_has(reg, name, strlen(name));
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
registry_nids(const struct registry *reg)
{
	return reg->nids;
}

const struct quantity *
registry_id_at(const struct registry *reg, size_t k)
{
	return k < reg->nids ? reg->q[reg->ids[k]] : NULL;
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

size_t
registry_suggest_prefix(const struct registry *reg, const char *prefix,
			char **out, size_t max)
{
	size_t i, k, nu = 0, cap = 0, parts = 0, n;
	int whole = !*prefix || prefix[strlen(prefix) - 1] != '.';
	const char **near = xcalloc(max ? max : 1, sizeof(*near)), *p;
	char **uniq = NULL;
	struct suggest s;

	for (p = prefix; *p; p++)
		parts += *p == '.';
	/* Each name cut after as many dots as prefix has, once each. */
	for (i = 0; i < reg->n; i++) {
		const char *name = reg->q[i]->name, *e = name;
		size_t len;

		for (k = 0; k < parts && e; k++)
			e = strchr(e, '.') ? strchr(e, '.') + 1 : NULL;
		if (!e)
			continue;
		len = (size_t)(e - name) + (whole ? strcspn(e, ".") : 0);
		for (k = 0; k < nu; k++)
			if (strlen(uniq[k]) == len &&
			    !strncmp(uniq[k], name, len))
				break;
		if (k < nu)
			continue;
		uniq = xgrow(uniq, &cap, nu + 1, sizeof(*uniq));
		uniq[nu++] = xstrndup(name, len);
	}
	suggest_init(&s, prefix, near, max);
	for (k = 0; k < nu; k++)
		suggest_add(&s, uniq[k]);
	n = suggest_end(&s);
	for (i = 0; i < n; i++)
		out[i] = xstrdup(near[i]);
	for (k = 0; k < nu; k++)
		free(uniq[k]);
	free(uniq);
	free(near);
	return n;
}

size_t
registry_suggest(const struct registry *reg, const char *name,
		 const char **out, size_t max)
{
	struct suggest s;
	size_t i;

	suggest_init(&s, name, out, max);
	for (i = 0; i < reg->n; i++)
		suggest_add(&s, reg->q[i]->name);
	return suggest_end(&s);
}
