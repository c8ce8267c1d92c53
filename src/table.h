#ifndef TABLE_H
#define TABLE_H

#include <stddef.h>

/*
 * A CSV file read through libcsv into memory: a header naming the
 * columns, then rows of text cells. Header-driven: callers find columns
 * by name and convert cells with the typed getters below, which report
 * "file:line:col: error: column 'x': ..." where line and col (1-based,
 * col in bytes) are where the cell starts in the file.
 *
 * Accepted input: UTF-8 (a leading BOM is skipped), LF, CRLF or CR line
 * ends, RFC 4180 quoting (fields may hold commas, doubled quotes and
 * newlines), blank lines between rows ignored. Every row must have as
 * many fields as the header.
 */
struct table;

enum table_num_flags {
	TABLE_OPTIONAL = (1 << 0),	/* empty cell allowed: gives NAN */
	TABLE_POSITIVE = (1 << 1),	/* must be > 0 (logarithms, sizes) */
	TABLE_NONNEG = (1 << 2),	/* must be >= 0 */
	TABLE_INTEGER = (1 << 3),	/* must be a whole number */
};

/*
 * What a file's columns hold, when it has a schema (schema.h describes
 * the data files): the header must name every column that is not
 * TABLE_COL_OPTIONAL, a header column one edit or so from a known
 * column it lacks is taken for a misspelling of it, and a row with one
 * field too few is matched against the kinds of the columns to say
 * which column it leaves out. Every cell of every column the schema
 * declares is then checked against its kind, whether a loader reads the
 * column or not, with the getters' messages below: text and ids not
 * empty unless TABLE_COL_EMPTY, a finite decimal number, a whole year
 * in [TABLE_YEAR_MIN, TABLE_YEAR_MAX], a month YYYY-MM. What a value
 * means (positive, a year the model knows) the loaders check with the
 * getters. Columns the schema does not know are kept as text (the data
 * page shows them).
 */
enum table_kind {
	TABLE_KIND_TEXT,	/* text, not a lone number */
	TABLE_KIND_ID,		/* a-z, 0-9 and _ */
	TABLE_KIND_NUMBER,	/* a decimal number */
	TABLE_KIND_YEAR,	/* a whole year */
	TABLE_KIND_MONTH,	/* YYYY-MM */
};

/* The years a TABLE_KIND_YEAR or TABLE_KIND_MONTH cell may hold. */
#define TABLE_YEAR_MIN 1000
#define TABLE_YEAR_MAX 9999

enum table_column_flags {
	TABLE_COL_OPTIONAL = (1 << 0),	/* may be absent from the header */
	TABLE_COL_EMPTY = (1 << 1),	/* a cell may be empty */
	/*
	 * The row's id, which names its quantities (device.<id>.*): one
	 * column of a file at most, of kind TABLE_KIND_ID.
	 */
	TABLE_COL_ID = (1 << 2),
	/*
	 * The row's date, a year or a month: an edition leaves out the
	 * rows dated after its year. One column of a file at most.
	 */
	TABLE_COL_DATE = (1 << 3),
};

struct table_column {
	const char *name;
	enum table_kind kind;
	unsigned flags;
	const char *unit;	/* of the numbers, or NULL */
	const char *what;	/* a few words, for `ultimate datasets --tables` */
};

struct table_schema {
	const char *file;	/* "devices.csv" */
	const char *what;	/* what a row is */
	const struct table_column *cols;	/* in the shipped files' order */
	size_t ncols;
};

/*
 * The column called name of t, whose schema (the one it was loaded
 * with) must declare it: a loader reading a column the catalogue
 * (schema.c) does not know is a bug, BUG(). Returns its index, or -1
 * when it is an optional column the file leaves out (a required one is
 * always there: the header was checked when the file was read).
 */
int table_col(const struct table *t, const char *name);
/*
 * The column of t whose schema column has flag (TABLE_COL_ID or
 * TABLE_COL_DATE), or -1 when t has no schema, the schema declares no
 * such column or the file leaves it out.
 */
int table_role(const struct table *t, unsigned flag);
/* The schema's column of t's column col, or NULL when it has none. */
const struct table_column *table_column_of(const struct table *t, int col);
/* The schema t was loaded with, or NULL. */
const struct table_schema *table_schema_of(const struct table *t);

/* At most this many errors are printed for one file before it stops. */
#define TABLE_MAX_ERRORS 20

/*
 * Reads and parses the CSV file at path, checked against schema when it
 * is not NULL. Returns NULL after printing every error found (up to
 * TABLE_MAX_ERRORS). Free with table_free().
 */
struct table *table_load(const char *path, const struct table_schema *schema);
/* Parses CSV text from memory; name is used in messages. */
struct table *table_parse(const char *name, const char *data, size_t len);
/* The same, checked against schema (or not, when it is NULL). */
struct table *table_parse_schema(const char *name, const char *data,
				 size_t len, const struct table_schema *schema);
/* The word for a kind in messages and listings: "text", "number", ... */
const char *table_kind_name(enum table_kind kind);
void table_free(struct table *t);

const char *table_name(const struct table *t);
/* The file's bytes as read (for copying it); borrowed from t. */
const char *table_source(const struct table *t, size_t *len);
size_t table_rows(const struct table *t);
size_t table_cols(const struct table *t);
const char *table_header(const struct table *t, size_t col);
/* Physical line on which row starts (1-based, the header is line 1). */
size_t table_line(const struct table *t, size_t row);
/* The row that starts on line (as table_line() gives it), or SIZE_MAX. */
size_t table_row_at_line(const struct table *t, size_t line);

/* Index of the column called name, or -1 when there is none. */
int table_find(const struct table *t, const char *name);
/*
 * Index of the required column name; when it is missing, prints
 * "file:line:1: error: missing required column 'name'" (line: the
 * header's) and returns -1.
 */
int table_require(const struct table *t, const char *name);

/* The cell text (never NULL, "" when empty); borrowed from t. */
const char *table_cell(const struct table *t, size_t row, int col);
/*
 * Converts a cell to a finite double checked against flags. Returns 0 and
 * sets *out, or prints an error and returns -1. An empty TABLE_OPTIONAL
 * cell gives 0 with *out = NAN.
 */
int table_num(const struct table *t, size_t row, int col, unsigned flags,
	      double *out);
/* A year: a whole number in [lo, hi]. */
int table_year(const struct table *t, size_t row, int col, int lo, int hi,
	       int *out);
/*
 * A list date "YYYY-MM" (month 01 to 12, year in [lo, hi]); *out gets the
 * decimal year at the middle of the month.
 */
int table_month(const struct table *t, size_t row, int col, int lo, int hi,
		double *out);
/*
 * Files whose rows each become many quantities (devices, claims,
 * assumptions) are bounded: past max rows, prints "more than MAX rows:
 * why" at the first row too many and returns -1.
 */
int table_max_rows(const struct table *t, size_t max, const char *why);

/* A non-empty text cell; returns -1 with an error when it is empty. */
int table_text(const struct table *t, size_t row, int col, const char **out);
/*
 * As table_text(), for an id that names quantities (device.<id>,
 * claim.<id>) and the files of their pages (quantities/device.<id>.html):
 * a-z, 0-9 and _ only, at most TABLE_ID_MAX of them, else an error at
 * the cell.
 */
#define TABLE_ID_MAX 64		/* REGISTRY_PART_MAX at most (model.c) */
#define TABLE_ID_CHARS "abcdefghijklmnopqrstuvwxyz0123456789_"
int table_id(const struct table *t, size_t row, int col, const char **out);

/*
 * Checks that the cell of row in col (an id) appears in no earlier row;
 * else prints "duplicate <col> '<value>' (first on line N)" and returns
 * -1. The first call for a column sorts it once (n log n); later calls
 * for it take constant time.
 */
int table_unique(struct table *t, size_t row, int col);

/*
 * A set of loaded tables, each read once per run and shared by the
 * stages that show them (model, audit, data page). The set owns them.
 */
struct tableset {
	struct table **t;
	size_t n, cap;
	char **failed;		/* "dir/file" of each file that failed */
	size_t nfailed, failed_cap;
	/* What other stages make of the files, kept as long as the set. */
	struct tableset_kept *kept;
};

/*
 * Keeps p under key for the set's lifetime, freed by free_fn (or not,
 * NULL) when the set is released: what a stage makes of the files once
 * for every edition of a run (the data catalogue, schema.c; the model
 * document, model.c). The set knows nothing of what p is.
 */
void tableset_keep(struct tableset *ts, const char *key, void *p,
		   void (*free_fn)(void *));
/* What tableset_keep() kept under key, or NULL. */
void *tableset_kept(const struct tableset *ts, const char *key);

/* The table of the set named name (table_name()), or NULL. */
const struct table *tableset_find(const struct tableset *ts,
				  const char *name);
/*
 * The table of dir/file from the set, loading it on first use (named
 * "dir/file" in messages) and checking it against schema (which must
 * outlive the set: a table keeps it; NULL: no checks). Returns NULL
 * after printing errors; a file that failed gives NULL on later calls
 * without a word (its errors are printed once). The table belongs to
 * the set. schema.h loads a project's data files with their catalogue's
 * schemas (schema_load()).
 */
struct table *tableset_load_as(struct tableset *ts, const char *dir,
			       const char *file,
			       const struct table_schema *schema);
/* Frees every table of the set; ts is left empty. */
void tableset_release(struct tableset *ts);

/* Prints "file:line:col: error: column 'name': message" for a cell. */
int table_error(const struct table *t, size_t row, int col, const char *fmt,
		...) __attribute__((format(printf, 4, 5)));
/* The same at byte within of the cell's text (after its quote). */
int table_error_in(const struct table *t, size_t row, int col, size_t within,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
