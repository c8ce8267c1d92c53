#ifndef MATHML_H
#define MATHML_H

struct buf;
struct expr;
struct quantity;
struct registry;

/*
 * Formulas typeset as MathML Core, which current browsers render with no
 * script: an expression tree (expr.h) -> <math> with <mfrac> for
 * division, <msup> for powers, <msqrt>/<mroot> for powers 1/2 and 1/n,
 * <msub> for subscripted symbols and functions (log with base 10), and
 * parentheses only where precedence needs them. Names are written as
 * their quantity's symbol (registry.h, q->symbol: "E_max" is E with
 * max below; a family's member, q->row, with its row in place of the
 * index, or the index bound once after the formula: "m_d, d =
 * macbook_2008"), or as the name itself; each links to the quantity it
 * stands for (MathML's href: HTML allows no title inside <math>), and
 * the <math> of a formula carries its plain text as alttext. Writes into
 * out only.
 */
enum mathml_flags {
	MATHML_BLOCK = (1 << 0),	/* display="block": an equation */
	/*
	 * Only a formula of symbols: -1, nothing written, when q or a
	 * quantity its formula names has no symbol (typeset, such a
	 * formula is its names in upright letters, and reads better as
	 * the code it is).
	 */
	MATHML_SYMBOLS = (1 << 1),
};

/*
 * Appends <math>e</math>; with lhs, "lhs = e" (lhs's symbol); then, for
 * a family's index that stands for one row in it, ", d = macbook_2008"
 * (in the <math> of a MATHML_BLOCK, else a <math> of its own). reg may be
 * NULL (no symbols, names as written). Symbols of quantities link to
 * page#name ("quantities.html", "" for the page itself); page NULL: no
 * links.
 */
void mathml_expr(struct buf *out, const struct expr *e,
		 const struct registry *reg, const struct quantity *lhs,
		 const char *page, unsigned flags);

/*
 * Typeset formulas kept for a run (a report typesets most formulas once
 * in each of its editions, the same each time): a formula is typeset
 * again only where its quantity, the flags, the page, or what its names
 * stand for in the registry (present or not, symbol, row, unit, and the
 * address of each link) differ from when it was kept. Every edition's
 * report: 1868M -> 1737M instructions (callgrind, warm).
 */
struct mathml_memo;
struct mathml_memo *mathml_memo_new(void);
void mathml_memo_free(struct mathml_memo *m);
/*
 * Other HTML a page makes the same in every edition, kept in the memo
 * under a key of the caller's (the len bytes at key: all it depends
 * on). mathml_memo_text() returns what was kept under key, or NULL;
 * mathml_memo_keep() keeps the len bytes at html under it.
 */
const struct buf *mathml_memo_text(const struct mathml_memo *m,
				   const void *key, size_t len);
void mathml_memo_keep(struct mathml_memo *m, const void *key, size_t len,
		      const char *html, size_t n);

/*
 * Appends the formula of q as "symbol = expression". Returns 0, or -1
 * with nothing written when q has no formula, it does not parse (the
 * formula test, tests/unit/test_formulas.c, sees to it that each does)
 * or, with MATHML_SYMBOLS, a name in it has no symbol. m: a memo to take
 * the formula from and keep it in, or NULL.
 */
int mathml_formula(struct buf *out, const struct registry *reg,
		   const struct quantity *q, const char *page, unsigned flags,
		   struct mathml_memo *m);

/*
 * Where the symbols of a formula link when the quantities' entries are
 * on more than one page (the site's quantities/KEY.html): href appends
 * the address of name's entry, not escaped, to out.
 */
struct mathml_links {
	void (*href)(struct buf *out, const char *name, const void *ctx);
	const void *ctx;
};
/* mathml_formula(), each symbol linked where links->href says. */
int mathml_formula_linked(struct buf *out, const struct registry *reg,
			  const struct quantity *q,
			  const struct mathml_links *links, unsigned flags,
			  struct mathml_memo *m);

#endif
