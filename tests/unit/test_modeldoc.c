/*
 * The model document (src/modeldoc.c): definitions evaluated in order
 * with their units, inputs derived from the expression, forward
 * references evaluated first, providers called where the document
 * says, and every mistake an author can make located.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "bib.h"
#include "buf.h"
#include "mathml.h"
#include "methods.h"
#include "modeldoc.h"
#include "registry.h"

static char path[64];

/* Loads text as a model document from a temporary file. */
static struct modeldoc *
load(const char *text)
{
	struct modeldoc *doc;

	strcpy(path, "/tmp/modeldoc-XXXXXX");
	write_temp(path, text, strlen(text));
	doc = modeldoc_load(path);
	return doc;
}

static int provided;

/* A provider standing for the data: adds m = 2 kg. */
static int
give_mass(void *ctx)
{
	struct registry *reg = ctx;

	provided++;
	return registry_add_num(reg, "box.mass", 2, "kg", "assumption",
				NULL, "test", NULL) ? 0 : -1;
}

/* A provider standing for the devices: rows box.a (2 kg) and box.b. */
static int
give_rows(void *ctx)
{
	struct registry *reg = ctx;

	registry_add_text(reg, "box.a.id", "a", "row", NULL, "test", NULL);
	registry_add_num(reg, "box.a.mass", 2, "kg", "data", NULL, "test",
			 NULL);
	registry_add_text(reg, "box.b.id", "b", "row", NULL, "test", NULL);
	return 0;
}

/* One row box.ID: its id, kind, year and mass. */
static void
give_box(struct registry *reg, const char *id, const char *kind, int year,
	 double mass)
{
	char name[64];

	snprintf(name, sizeof(name), "box.%s.id", id);
	registry_add_text(reg, name, id, "row", NULL, "test", NULL);
	snprintf(name, sizeof(name), "box.%s.kind", id);
	registry_add_text(reg, name, kind, "data", NULL, "test", "t.csv:1");
	snprintf(name, sizeof(name), "box.%s.year", id);
	registry_add_num(reg, name, year, "year", "data", NULL, "test", NULL);
	snprintf(name, sizeof(name), "box.%s.mass", id);
	registry_add_num(reg, name, mass, "kg", "data", NULL, "test", NULL);
}

/*
 * Rows to pick from: the heaviest two tie (b first), and the newest of
 * kind x is the lightest of all.
 */
static int
give_boxes(void *ctx)
{
	struct registry *reg = ctx;

	give_box(reg, "a", "x", 2020, 2);
	give_box(reg, "b", "y", 2021, 3);
	give_box(reg, "c", "x", 2019, 3);
	give_box(reg, "d", "x", 2021, 1);
	give_box(reg, "e", "x", 2021, 1);
	return 0;
}

/* A row whose mass is a time: the boxes cannot be compared by it. */
static int
give_odd(void *ctx)
{
	struct registry *reg = ctx;

	registry_add_text(reg, "box.z.id", "z", "row", NULL, "test", NULL);
	return registry_add_num(reg, "box.z.mass", 1, "s", "data", NULL,
				"test", NULL) ? 0 : -1;
}

static const struct modeldoc_provider providers[] = {
	{ "odd", give_odd },
	{ "mass", give_mass },
	{ "rows", give_rows },
	{ "boxes", give_boxes },
	{ NULL, NULL },
};

/* Runs doc into a new registry; *ret gets modeldoc_run()'s result. */
static struct registry *
run(struct modeldoc *doc, int *ret)
{
	struct registry *reg = registry_new();
	struct modeldoc_eval ev = { .doc = doc, .reg = reg,
				    .providers = providers, .ctx = reg };

	*ret = modeldoc_run(&ev);
	return reg;
}

static void
test_evaluates(void **state)
{
	struct modeldoc *doc;
	struct registry *reg;
	const struct quantity *q;
	int ret;

	(void)state;
	provided = 0;
	doc = load("# A model\n\nProse.\n\n```define\n"
		   "c = 299792458\n  unit: m/s\n  note: light\n\n"
		   "call mass\n\n"
		   "box.energy = box.mass *\n    c^2\n  unit: J\n"
		   "  symbol: E\n  note: rest energy\n  source: [lloyd2000]\n"
		   "\nbox.energy_gev = box.energy\n  unit: GeV\n```\n\n"
		   "More prose.\n\n```define\nbox.mass\n  unit: kg\n"
		   "  symbol: m\n```\n");
	assert_non_null(doc);
	reg = run(doc, &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(provided, 1);
	q = registry_get(reg, "box.energy");
	assert_non_null(q);
	assert_near(q->value, 2 * 299792458.0 * 299792458.0, 1e-15);
	assert_string_equal(q->unit, "J");
	assert_string_equal(q->expr, "box.mass * c^2");
	assert_string_equal(q->formula, "box.mass * c^2 (rest energy)");
	assert_string_equal(q->source, "[lloyd2000]");
	assert_string_equal(q->symbol, "E");
	/* Inputs: the names read, in the order read. */
	assert_int_equal(q->ninputs, 2);
	assert_string_equal(q->inputs[0], "box.mass");
	assert_string_equal(q->inputs[1], "c");
	/* Converted to the unit declared. */
	q = registry_get(reg, "box.energy_gev");
	assert_near(q->value, 2 * 299792458.0 * 299792458.0 /
		    1.602176634e-10, 1e-12);
	/* A number alone is given: no formula to check, no inputs. */
	q = registry_get(reg, "c");
	assert_null(q->expr);
	assert_int_equal(q->ninputs, 0);
	assert_string_equal(q->formula, "light");
	assert_string_equal(registry_get(reg, "box.mass")->symbol, "m");
	/* The parts for the Methods page: prose, block, prose, block. */
	assert_int_equal(modeldoc_nparts(doc), 4);
	registry_free(reg);
	modeldoc_free(doc);
	unlink(path);
}

/*
 * "for r in rates": a name with "{r}" is one quantity per rate of the
 * document (the definitions with "rate:", given or computed), in their
 * order; "r" alone is the rate, "{r}" in a note its words and in a
 * symbol its tag. A rate this edition lacks counts nothing. With a
 * family of rows, one per row and rate.
 */
static void
test_rate(void **state)
{
	struct registry *reg;
	const struct quantity *q;
	struct modeldoc *doc;
	int ret;

	(void)state;
	doc = load("```define\nrate.two = 2\n  unit: yr\n  rate: two years\n"
		   "  tag: 2\n\nrate.four = rate.two * 2\n  unit: yr\n"
		   "  rate: four years\n\nrate.none = 1\n  when: 1 > 2\n"
		   "  unit: yr\n  rate: never\n\ncall rows\n```\n\n"
		   "```define\nfor r in rates\nn = 3\n  unit:\n\ny0 = 2000\n  unit: year\n\n"
		   "t_{r} = n * r\n  unit: yr\n  symbol: t_{r}\n"
		   "  note: at {r}\n\ny_{r} = y0 + t_{r}\n  unit: year\n"
		   "```\n\n```define\nfor d in box\nfor r in rates\n"
		   "d.years_{r} = r * 2\n  when: has(d.mass)\n"
		   "  unit: yr\n```\n");
	assert_non_null(doc);
	assert_string_equal(modeldoc_rate(doc, 0), "rate.two");
	assert_string_equal(modeldoc_rate(doc, 2), "rate.none");
	assert_null(modeldoc_rate(doc, 3));
	reg = run(doc, &ret);
	assert_int_equal(ret, 0);
	q = registry_get(reg, "t_two");
	assert_non_null(q);
	assert_near(q->value, 6, 1e-15);
	assert_string_equal(q->expr, "n * rate.two");
	assert_string_equal(q->symbol, "t_2");
	assert_string_equal(q->formula, "n * rate.two (at two years)");
	q = registry_get(reg, "t_four");
	assert_non_null(q);
	assert_near(q->value, 12, 1e-15);
	/* No tag: the symbol takes the rate's last part. */
	assert_string_equal(q->symbol, "t_four");
	q = registry_get(reg, "y_four");
	assert_non_null(q);
	assert_near(q->value, 2012, 1e-12);
	assert_string_equal(q->expr, "y0 + t_four");
	assert_null(registry_get(reg, "t_none"));
	assert_null(registry_get(reg, "y_none"));
	/* One per row and rate; b has no mass. */
	q = registry_get(reg, "box.a.years_four");
	assert_non_null(q);
	assert_near(q->value, 8, 1e-15);
	assert_null(registry_get(reg, "box.b.years_two"));
	registry_free(reg);
	modeldoc_free(doc);
	unlink(path);
}

static void
test_forward_reference(void **state)
{
	struct modeldoc *doc;
	struct registry *reg;
	int ret;

	(void)state;
	/* Written in the order that reads best: b before what it needs. */
	doc = load("```define\nb = 2 * a\n  unit: m\n\na = 3\n  unit: m\n"
		   "```\n");
	assert_non_null(doc);
	reg = run(doc, &ret);
	assert_int_equal(ret, 0);
	assert_near(registry_get(reg, "b")->value, 6, 0);
	/* a is evaluated first, so it comes first. */
	assert_string_equal(registry_at(reg, 0)->name, "a");
	registry_free(reg);
	modeldoc_free(doc);
	unlink(path);
}

static void
test_family(void **state)
{
	struct registry *reg;
	const struct quantity *q;
	struct modeldoc *doc;
	int ret;

	(void)state;
	doc = load("```define\nc = 3\n  unit: m/s\n\ncall rows\n```\n\n"
		   "```define\nfor d in box\nd.mass\n  unit: kg\n"
		   "  symbol: m_d\n\nd.energy = d.mass * c^2\n"
		   "  when: has(d.mass)\n  unit: J\n```\n");
	assert_non_null(doc);
	reg = run(doc, &ret);
	assert_int_equal(ret, 0);
	q = registry_get(reg, "box.a.energy");
	assert_non_null(q);
	assert_near(q->value, 18, 1e-15);
	/* The member's formula and inputs are its row's. */
	assert_string_equal(q->expr, "box.a.mass * c^2");
	assert_int_equal(q->ninputs, 2);
	assert_string_equal(q->inputs[0], "box.a.mass");
	assert_string_equal(registry_get(reg, "box.a.mass")->symbol, "m_d");
	/* b has no mass: no energy, and no error. */
	assert_null(registry_get(reg, "box.b.energy"));
	registry_free(reg);
	modeldoc_free(doc);
	unlink(path);
}

static void
test_pick(void **state)
{
	struct modeldoc *doc;
	struct registry *reg;
	const struct quantity *q;
	int ret;

	(void)state;
	doc = load("```define\ncall boxes\n\n"
		   "pick.heavy = largest d in box by d.mass\n"
		   "  note: the heaviest\n\n"
		   "pick.light = smallest d in box by d.mass\n\n"
		   "pick.newest = largest d in box by d.year,\n"
		   "    -d.mass where d.kind == \"x\"\n\n"
		   "pick.none = largest d in box by d.mass where d.kind == "
		   "\"z\"\n\n"
		   "seen = 1\n  when: has(pick.heavy)\n  unit:\n\n"
		   "unseen = 1\n  when: has(pick.none)\n  unit:\n"
		   "```\n\n"
		   "```define\nfor d in box pick\nd.mass\n  unit: kg\n"
		   "  symbol: m_d\n\nd.energy = d.mass * 2\n  unit: kg\n"
		   "```\n");
	assert_non_null(doc);
	reg = run(doc, &ret);
	assert_int_equal(ret, 0);
	/* A tie on the only key: the first row wins. */
	assert_string_equal(registry_get(reg, "pick.heavy.id")->text, "b");
	assert_string_equal(registry_get(reg, "pick.heavy.kind")->text, "y");
	/* A data figure stays one, with its data row. */
	q = registry_get(reg, "pick.heavy.mass");
	assert_near(q->value, 3, 0);
	assert_string_equal(q->unit, "kg");
	assert_null(q->expr);
	assert_string_equal(q->origin ? q->origin : "", "");
	assert_non_null(strstr(q->formula, "the row box.b, the heaviest"));
	assert_string_equal(registry_get(reg, "pick.heavy.kind")->origin,
			    "t.csv:1");
	/* The family evaluates its members for the pick, as for a row. */
	q = registry_get(reg, "pick.heavy.energy");
	assert_non_null(q);
	assert_near(q->value, 6, 0);
	assert_string_equal(q->expr, "pick.heavy.mass * 2");
	assert_string_equal(registry_get(reg, "pick.heavy.mass")->symbol,
			    "m_d");
	assert_string_equal(registry_get(reg, "pick.light.id")->text, "d");
	/* Newest first, then the lightest (-mass largest), then first. */
	assert_string_equal(registry_get(reg, "pick.newest.id")->text, "d");
	/* No row qualifies: nothing, no error, and has() says so. */
	assert_false(registry_has(reg, "pick.none"));
	assert_non_null(registry_get(reg, "seen"));
	assert_null(registry_get(reg, "unseen"));
	registry_free(reg);
	modeldoc_free(doc);
	unlink(path);
}

/*
 * A pick over a family with no rows yet is empty, not unknown; one
 * whose when: is false is not made.
 */
static void
test_pick_empty(void **state)
{
	struct modeldoc *doc;
	struct registry *reg;
	int ret;

	(void)state;
	doc = load("```define\npick.x = largest d in box by d.mass\n```\n\n"
		   "```define\nfor d in box\nd.mass\n  unit: kg\n```\n\n"
		   "```define\ncall boxes\n\npick.y = largest d in box by "
		   "d.mass\n  when: has(nothing)\n```\n");
	assert_non_null(doc);
	reg = run(doc, &ret);
	assert_int_equal(ret, 0);
	assert_false(registry_has(reg, "pick.x"));
	/* A pick whose when: is false is not made, rows or not. */
	assert_true(registry_has(reg, "box.a"));
	assert_false(registry_has(reg, "pick.y"));
	registry_free(reg);
	modeldoc_free(doc);
	unlink(path);
}

/* Loads and runs text; checks stderr, with FILE standing for the path. */
static void
expect_error(const char *text, const char *want)
{
	struct modeldoc *doc;
	struct registry *reg = NULL;
	struct buf w = BUF_INIT;
	const char *p;
	char *got;
	int ret = 0;

	capture_start();
	doc = load(text);
	if (doc)
		reg = run(doc, &ret);
	got = capture_end();
	for (p = want; *p; p++) {
		if (!strncmp(p, "FILE", 4)) {
			buf_addstr(&w, path);
			p += 3;
		} else {
			buf_addch(&w, *p);
		}
	}
	if (!strstr(got, w.data)) {
		print_error("stderr was:\n%s\nwanted in it:\n%s\n", got,
			    w.data);
		fail();
	}
	assert_true(!doc || ret < 0);
	free(got);
	buf_release(&w);
	registry_free(reg);
	modeldoc_free(doc);
	unlink(path);
	diag_reset();
}

static void
test_errors(void **state)
{
	(void)state;
	expect_error("```define\nx = 1\n  unit: m\n\ny = x * 2\n  unit: s\n"
		     "```\n", "FILE:5:5: error: this expression is in m, but "
		     "the unit given is 's'");
	expect_error("```define\nx = 1\n  unit: m\n\ny = xx\n  unit: m\n"
		     "```\n", "FILE:5:5: error: unknown quantity 'xx'; did "
		     "you mean 'x'?");
	expect_error("```define\nx = 1\n  unit: m\n\nx = 2\n  unit: m\n"
		     "```\n", "FILE:5:1: error: 'x' is already defined on "
		     "line 2");
	expect_error("```define\na = b\n  unit: m\n\nb = c\n  unit: m\n\n"
		     "c = a\n  unit: m\n```\n", "error: 'a' depends on "
		     "itself: a -> b -> c -> a");
	expect_error("```define\nx = 1\n  units: m\n```\n",
		     "FILE:3:3: error: unknown attribute 'units'");
	expect_error("```define\nx = 1\n```\n", "FILE:2:1: error: 'x' has "
		     "no unit");
	expect_error("```define\nx = 1\n  unit: furlong\n```\n",
		     "FILE:3:9: error:");
	expect_error("```define\ncall mas\n```\n", "FILE:2:6: error: "
		     "unknown provider 'mas'; did you mean 'mass'?");
	expect_error("```define\nbox.mass\n  unit: kg\n```\n",
		     "FILE:2:1: error: 'box.mass' is declared here, and no "
		     "data give it");
	expect_error("```define\ncall mass\n\nbox.mass\n  unit: m\n```\n",
		     "FILE:5:9: error: the unit of 'box.mass' is declared "
		     "'m', but the data give 'kg', of another dimension");
	expect_error("```define\ncall mass\n\nbox.mass = 3\n  unit: kg\n"
		     "```\n", "FILE:4:1: error: 'box.mass' is already a "
		     "quantity");
	expect_error("```define\nx = (1 +\n  unit: m\n```\n", "FILE:2:");
	expect_error("```define\nx = 1\n  unit: m\n", "FILE:1:1: error: "
		     "this block has no closing ```");
	expect_error("```define\nBad name! = 1\n```\n", "FILE:2:");
	expect_error("```define\ncall rows\n```\n\n```define\nfor d in "
		     "box\nd.x = d.mass\n  when: has(d.mass)\n  unit: s\n"
		     "```\n", "FILE:7:7: error: this expression is in kg, "
		     "but the unit given is 's' (row box.a)");
	expect_error("```define\nx = 1\n  unit: m\n\nfor d in box\n"
		     "```\n", "FILE:5:1: error: 'for' is the first line of "
		     "a block");
	expect_error("```define\nfor d in box\nx = 1\n  unit: m\n```\n",
		     "FILE:3:1: error: in a family over 'd', a name starts "
		     "with 'd.'");
	expect_error("```define\nx = \"text\"\n  unit: m\n```\n",
		     "FILE:2:5: error: 'x' gives a text, and a text has no "
		     "unit: give it 'unit:' empty");
	expect_error("```define\nt_{r} = 1\n  unit: yr\n```\n",
		     "FILE:2:1: error: '{r}' stands for a rate: the block "
		     "starts 'for r in rates'");
	expect_error("```define\nfor r in rates\nt_{s} = 1\n  unit: yr\n"
		     "```\n", "FILE:3:1: error: '{s}' is no rate variable: "
		     "this block's rates are '{r}'");
	expect_error("```define\nfor r in rates\nt = x_{r}\n  unit: yr\n"
		     "```\n", "FILE:3:1: error: 't' reads a name with '{r}'");
	expect_error("```define\nfor r in rates\nfor s in rates\n```\n",
		     "FILE:3:1: error: a block has one 'for ... in rates'");
	expect_error("```define\nx = 1\n  unit: yr\n  tag: x\n```\n",
		     "FILE:4:8: error: 'tag:' is a rate's");
	/* Picks. */
	expect_error("```define\ncall boxes\n\np.x = largest d in bxo by "
		     "d.mass\n```\n", "FILE:4:7: error: unknown family "
		     "'bxo': no rows 'bxo.X'");
	expect_error("```define\ncall boxes\n\np.x = largest d in box by "
		     "d.kind\n```\n", "FILE:4:27: error: a key of a pick is "
		     "a number, and this gives the text 'x' (row box.a)");
	expect_error("```define\ncall boxes\n\np.x = largest d in box by "
		     "d.mas\n```\n", "FILE:4:27: error: unknown quantity "
		     "'box.a.mas' (from 'd.mas')");
	expect_error("```define\ncall boxes\n\np.x = smallest d in box by "
		     "d.mass where d.kind\n    == 1\n```\n", "FILE:4:41: "
		     "error: '==' needs a number, got the text");
	expect_error("```define\ncall boxes\n\np.x = largest d in box "
		     "d.mass\n```\n", "FILE:4:");
	expect_error("```define\np.x = largest d in box by where d.mass\n"
		     "```\n", "FILE:2:26: error: expected a key");
	expect_error("```define\np.x = largest d in box by d.mass\n"
		     "  unit: kg\n```\n", "FILE:2:1: error: 'p.x' is a pick");
	expect_error("```define\ncall boxes\n\ncall odd\n\np.x = largest "
		     "d in box by d.mass\n```\n", "FILE:6:27: error: this "
		     "key is in s for row box.z, and in kg for the rows "
		     "before: the rows cannot be compared");
	expect_error("```define\nfor d in box\nd.x = largest d in box by "
		     "d.mass\n```\n", "FILE:3:1: error: a pick is no member "
		     "of a family");
	expect_error("```define\ncall boxes\n\nbox = largest d in box by "
		     "d.mass\n```\n", "FILE:4:1: error: 'box' is already a "
		     "quantity or a prefix of some");
}

/* A reduction's inputs: each row's id and what it reads there. */
static void
test_reduction_inputs(void **state)
{
	struct registry *reg;
	const struct quantity *q;
	struct modeldoc *doc;
	size_t i;
	int ret, ids = 0, mass = 0;

	(void)state;
	doc = load("```define\ncall rows\n\nn = count(d in box where "
		   "has(d.mass))\n  unit:\n```\n");
	assert_non_null(doc);
	reg = run(doc, &ret);
	assert_int_equal(ret, 0);
	q = registry_get(reg, "n");
	assert_non_null(q);
	assert_near(q->value, 1, 0);
	for (i = 0; i < q->ninputs; i++) {
		ids += !strcmp(q->inputs[i], "box.a.id") ||
		       !strcmp(q->inputs[i], "box.b.id");
		mass += !strcmp(q->inputs[i], "box.a.mass");
		assert_string_not_equal(q->inputs[i], "box.b.mass");
	}
	assert_int_equal(ids, 2);
	assert_int_equal(mass, 1);
	registry_free(reg);
	modeldoc_free(doc);
	unlink(path);
}

/* The Methods page of reg, with the memo and without: the same. */
static void
methods_same(const struct modeldoc *doc, const struct registry *reg,
	     struct mathml_memo *m)
{
	struct bib bib = { NULL, 0, "references.csv" };
	struct buf with = BUF_INIT, without = BUF_INIT;

	methods_page(&with, doc, reg, &bib, "q.html", NULL, "", m);
	methods_page(&without, doc, reg, &bib, "q.html", NULL, "", NULL);
	assert_string_equal(with.data, without.data);
	buf_release(&with);
	buf_release(&without);
}

/*
 * The Methods pages of two editions through one memo: each as it is
 * without (its prose, a definition's equation and a family's kept from
 * the first where they are the same, typeset again where a symbol
 * differs).
 */
static void
test_methods_memo(void **state)
{
	struct registry *a, *b;
	struct mathml_memo *m = mathml_memo_new();
	struct modeldoc *doc;
	struct buf page = BUF_INIT;
	int ret, k;

	(void)state;
	doc = load("# Prose\n\nSome *words*.\n\n```define\nc = 3\n"
		   "  unit: m/s\n  symbol: c\n\ncall rows\n\n"
		   "twice = 2 * c\n  unit: m/s\n  symbol: v\n```\n\n"
		   "```define\nfor d in box\nd.mass\n  unit: kg\n"
		   "  symbol: m_d\n\nd.energy = d.mass * c^2\n"
		   "  when: has(d.mass)\n  unit: J\n  symbol: E_d\n```\n");
	assert_non_null(doc);
	a = run(doc, &ret);
	assert_int_equal(ret, 0);
	b = run(doc, &ret);
	assert_int_equal(ret, 0);
	registry_set_symbol(b, "c", "c_0");
	for (k = 0; k < 2; k++) {
		methods_same(doc, a, m);
		methods_same(doc, b, m);
	}
	/* The symbol of b's own reaches its family's equation. */
	methods_page(&page, doc, b, &(struct bib){ NULL, 0, "r.csv" },
		     "q.html", NULL, "", m);
	assert_non_null(strstr(page.data, "<mi mathvariant=\"normal\">0"));
	buf_release(&page);
	registry_free(a);
	registry_free(b);
	modeldoc_free(doc);
	mathml_memo_free(m);
	unlink(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_evaluates),
		cmocka_unit_test(test_forward_reference),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_family),
		cmocka_unit_test(test_methods_memo),
		cmocka_unit_test(test_reduction_inputs),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_pick_empty),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
