#ifndef MODELINT_H
#define MODELINT_H

/*
 * What the files of the model stage share (model.c, series.c, devices.c):
 * the state of one build, the helpers that add quantities to it, and the
 * providers the model document calls (modeldoc.h). Not for other stages:
 * they use model.h.
 */
#include <stddef.h>

#include "buf.h"
#include "physics.h"
#include "registry.h"
#include "table.h"

struct datasets;
struct modeldoc_eval;

/*
 * The source of what the code derives itself; the sources of the
 * formulas are in data/model.md, as [key]s of data/references.csv.
 */
#define OURS "derived here"
/* An id (device.<id>, claim.<id>) is a part of quantities' names. */
_Static_assert(TABLE_ID_MAX <= REGISTRY_PART_MAX, "ids must fit names");
/*
 * Rows of devices.csv and assumptions.csv at most: each row makes many
 * quantities (a device some sixty), and every quantity is a row of the
 * quantities page. 200,000 devices took a minute and gigabytes.
 */
#define MAX_ROWS 10000

/* The years a data row may have. */
#define YEAR_MIN 1900
#define YEAR_MAX 2100

struct series;

struct model {
	struct registry *reg;
	const struct physconst *pc;
	const char *datadir;
	int failed;	/* a quantity could not be added: add no more */
	int as_of;	/* edition: rows after this year are left out */
	/*
	 * The newest year of the history series (and the file of the row),
	 * the newest edition: a row of another file dated after it would
	 * be in no edition, and is an error.
	 */
	int newest;
	const char *newest_file;
	struct datasets *ds;	/* figure data, or NULL */
	struct tableset *ts;	/* every table read, each once */
	struct physconst pcv;		/* the document's constants */
	struct modeldoc_eval *ev;	/* the model document's run */
	struct series *all;		/* the history series read */
};

#define SET(b, ...) (buf_reset(&(b)), buf_addf(&(b), __VA_ARGS__), (b).data)

/* Adds a number with a plain formula; returns v (model.c). */
double model_num(struct model *m, const char *name, double v,
		 const char *unit, const char *formula, const char *inputs,
		 const char *source);
/*
 * Adds a number with its formula: expr, an expression of the template
 * language over exactly the names in inputs (checked by
 * tests/unit/test_formulas.c), and note, a few words or NULL.
 */
double model_fx(struct model *m, const char *name, double v,
		const char *unit, const char *expr, const char *note,
		const char *inputs, const char *source);
/* The value of a quantity, evaluated now if the document defines it. */
double model_get(struct model *m, const char *name);

/* series.c: the history series, their fits, records, drives, curves. */
struct table *model_load(struct model *m, const char *file);
struct series *model_series_new(void);
void model_series_free(struct series *all);
void model_newest_year(struct model *m);
void model_add_edition(struct model *m);
int provide_series(void *ctx);
int provide_pace(void *ctx);
int provide_article_gaps(void *ctx);
int provide_records(void *ctx);
int provide_curves(void *ctx);

/* devices.c: devices.csv and quantum.csv. */
int model_after_newest(struct model *m, const struct table *t, size_t r,
		       int col, int year);
int provide_devices(void *ctx);
int provide_quantum(void *ctx);
int provide_compare(void *ctx);

#endif
