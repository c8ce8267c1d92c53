/*
 * The command line: parses argv, then runs the pipeline for the command
 * asked: load and model (model.c), then write (export.c, site.c) or
 * print. Holds no logic of its own beyond choosing what to run.
 */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "audit.h"
#include "bib.h"
#include "buf.h"
#include "changes.h"
#include "dataset.h"
#include "diag.h"
#include "export.h"
#include "hash.h"
#include "html.h"
#include "model.h"
#include "pages.h"
#include "plot.h"
#include "registry.h"
#include "report.h"
#include "schema.h"
#include "site.h"
#include "suggest.h"
#include "table.h"
#include "template.h"
#include "timing.h"
#include "watch.h"
#include "banned.h"

#ifndef VERSION
#define VERSION "unknown"
#endif
#ifndef DATADIR
#define DATADIR "/usr/local/share/ultimate"
#endif

enum exit_code {
	EXIT_OK = 0,
	EXIT_INPUT = 1,		/* bad data, templates or names */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_TOOL = 3,		/* an external tool failed */
};

struct options {
	const char *datadir;
	const char *templatedir;
	const char *outdir;
	int as_of;		/* 0: the newest year in the data */
	int editions;		/* report: every edition (default) */
	int csv;		/* diff: --format csv */
	int diff[2];		/* diff: the two years */
	int timings;		/* print stage timings to stderr */
	int tables;		/* datasets: --tables */
	double figure_timeout;	/* seconds gnuplot may run */
	uint64_t inputs;	/* key of the inputs, for the manifest */
	struct gnuplot *early;	/* gnuplot started ahead, or NULL */
	int poll;		/* watch: --poll */
	int serve;		/* watch: --serve PORT, or -1 */
};

static const char usage_text[] =
	"usage: ultimate [options] <command> [arguments]\n"
	"\n"
	"Recomputes the physical limits to computation (Lloyd 2000) and the\n"
	"gaps between real machines and them, from the CSV files in the\n"
	"data folder.\n"
	"\n"
	"commands:\n"
	"  report          write the site: index.html (the report),\n"
	"                  quantities.html and quantities/, data.html,\n"
	"                  quantities.csv/json,\n"
	"                  every edition since the article's year in\n"
	"                  editions/YEAR/, and changes.html\n"
	"  list [PREFIX]   print every quantity, or those whose name starts\n"
	"                  with PREFIX (laptop.): name, value, unit\n"
	"  get NAME        print the value of NAME alone (for scripts)\n"
	"  explain NAME    print the formula, inputs, value and source of NAME\n"
	"  check           audit the article's and the paper's printed figures\n"
	"                  (data/claims.csv); exit 1 if one drifts\n"
	"  diff YEAR1 YEAR2  print every quantity that changed from the\n"
	"                  YEAR1 edition to the YEAR2 edition, and the data\n"
	"                  rows that caused it (both editions: from the\n"
	"                  article's year to the newest year of the data)\n"
	"  watch           write the site as report does, then again each\n"
	"                  time a file in the data or templates folder\n"
	"                  changes (one line each); Ctrl-C stops\n"
	"  datasets        print the datasets a figure script can read\n"
	"                  ('# data:' in templates/figures/*.gp), each with\n"
	"                  its columns and their units\n"
	"  datasets --tables  print the data files' columns, as the loader\n"
	"                  reads them\n"
	"\n"
	"options:\n"
	"  -d, --data DIR  data folder (default: $ULTIMATE_DATA if set,\n"
	"                  else ./data if present, else\n"
	"                  " DATADIR "/data)\n"
	"  -t, --templates DIR  templates folder (default:\n"
	"                  $ULTIMATE_TEMPLATES if set, else ./templates if\n"
	"                  present, else " DATADIR "/templates)\n"
	"  -o, --out DIR   output folder for report and watch (default: out)\n"
	"  --as-of YEAR    the edition of YEAR: leave out data rows dated\n"
	"                  after it (default: the newest year in the data);\n"
	"                  report then writes the editions up to YEAR; no\n"
	"                  earlier than the article's year, and a year after\n"
	"                  the data gives their newest edition (with a note)\n"
	"  --no-editions   report: the one edition only (no editions/,\n"
	"                  no changes.html)\n"
	"  --format text|csv  diff: for people (default) or for scripts\n"
	"  --figure-timeout SECONDS  stop gnuplot after this long (default 60)\n"
	"  --poll          watch: look at the files every 300 ms instead of\n"
	"                  being told of changes by the system (inotify)\n"
	"  --serve PORT    watch: also serve the output folder at\n"
	"                  http://127.0.0.1:PORT/ (0: a free port)\n"
	"  --timings       print the time of each stage, and the program's own\n"
	"                  time and CPU (gnuplot apart), to stderr\n"
	"  -h, --help      show this help\n"
	"  -V, --version   show the version\n"
	"\n"
	"exit status:\n"
	"  0               success\n"
	"  1               bad input: data, templates or an unknown name;\n"
	"                  for check, a claim that drifts\n"
	"  2               bad command line\n"
	"  3               an external tool (gnuplot) is missing or failed\n"
	"  128+N           stopped by signal N (130: Ctrl-C)\n";

/* The shortest %g form that reads back to the same double. */
static void
add_number(struct buf *b, double v)
{
	char tmp[32];	/* "-1.2345678901234567e-308" */
	int len = 0, prec;

	for (prec = 6; prec <= 17; prec++) {
		len = snprintf(tmp, sizeof(tmp), "%.*g", prec, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	buf_add(b, tmp, (size_t)len);
}

static void
add_value(struct buf *b, const struct quantity *q)
{
	if (q->type == Q_TEXT) {
		buf_addstr(b, q->text);
		return;
	}
	add_number(b, q->value);
}

static int
is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * The folder of an input, in this order: the one given with the flag,
 * else $ENV, else ./NAME when it is a folder, else the installed copy.
 * Notes for "cannot open" errors how it was chosen, and how to choose
 * another.
 */
static const char *
input_dir(const char *given, const char *flag, const char *name,
	  const char *env, const char *installed)
{
	const char *e = getenv(env), *dir, *why;
	struct buf note = BUF_INIT;

	if (given)
		dir = given, why = "given with ";
	else if (e && *e)
		dir = e, why = "from ";
	else if (is_dir(name))
		dir = name, why = "found in the working directory";
	else
		dir = installed, why = "the installed copy";
	buf_addf(&note, "%s folder '%s', %s%s; choose another with %s DIR "
		 "or %s=DIR", name, dir, why, given ? flag : dir == e ? env :
		 "", flag, env);
	srcfile_note_folder(dir, note.data);
	buf_release(&note);
	return dir;
}

/* Looks name up, or prints an error with the closest names. */
static const struct quantity *
lookup(const struct registry *reg, const char *name)
{
	const struct quantity *q = registry_get(reg, name);
	const char *near[3];
	size_t n;
	struct buf msg = BUF_INIT;

	if (q)
		return q;
	n = registry_suggest(reg, name, near, 3);
	suggest_hint(&msg, near, n);
	error("unknown quantity '%s'%s", name, n ? msg.data :
	      " (see 'ultimate list')");
	buf_release(&msg);
	return NULL;
}

/* No quantity starts with prefix: an error with the closest prefixes. */
static int
no_prefix(const struct registry *reg, const char *prefix)
{
	char *near[3];
	size_t n = diag_full() ? 0 : registry_suggest_prefix(reg, prefix,
							      near, 3), i;
	struct buf msg = BUF_INIT;

	suggest_hint(&msg, (const char *const *)near, n);
	error("no quantity starts with '%s'%s", prefix, n ? msg.data :
	      " (see 'ultimate list')");
	for (i = 0; i < n; i++)
		free(near[i]);
	buf_release(&msg);
	return EXIT_INPUT;
}

/* Every quantity whose name starts with prefix ("": all of them). */
static int
cmd_list(const struct registry *reg, const char *prefix)
{
	struct buf line = BUF_INIT;
	size_t i, w = 0, plen = strlen(prefix), n = 0;

	for (i = 0; i < registry_count(reg); i++) {
		const char *name = registry_at(reg, i)->name;
		size_t len = strlen(name);

		if (strncmp(name, prefix, plen))
			continue;
		n++;
		if (len > w)
			w = len;
	}
	if (!n)
		return no_prefix(reg, prefix);
	for (i = 0; i < registry_count(reg); i++) {
		const struct quantity *q = registry_at(reg, i);

		if (strncmp(q->name, prefix, plen))
			continue;
		buf_reset(&line);
		buf_addf(&line, "%-*s  ", (int)w, q->name);
		add_value(&line, q);
		if (*q->unit)
			buf_addf(&line, " %s", q->unit);
		puts(line.data);
	}
	buf_release(&line);
	return EXIT_OK;
}

static int
cmd_get(const struct registry *reg, const char *name)
{
	const struct quantity *q = lookup(reg, name);
	struct buf b = BUF_INIT;

	if (!q)
		return EXIT_INPUT;
	add_value(&b, q);
	puts(b.data);
	buf_release(&b);
	return EXIT_OK;
}

static int
cmd_explain(const struct registry *reg, const char *name)
{
	const struct quantity *q = lookup(reg, name);
	struct buf b = BUF_INIT;
	size_t i, w = 0;

	if (!q)
		return EXIT_INPUT;
	buf_addf(&b, "%s = ", q->name);
	add_value(&b, q);
	if (*q->unit)
		buf_addf(&b, " %s", q->unit);
	buf_addf(&b, "\n  formula: %s\n", q->formula);
	if (q->ninputs)
		BUF_ADDLIT(&b, "  inputs:\n");
	for (i = 0; i < q->ninputs; i++)
		if (strlen(q->inputs[i]) > w)
			w = strlen(q->inputs[i]);
	for (i = 0; i < q->ninputs; i++) {
		const struct quantity *in = registry_get(reg, q->inputs[i]);

		buf_addf(&b, "    %-*s = ", (int)w, in->name);
		add_value(&b, in);
		if (*in->unit)
			buf_addf(&b, " %s", in->unit);
		buf_addch(&b, '\n');
	}
	buf_addf(&b, "  source: %s\n", q->source);
	if (q->origin)
		buf_addf(&b, "  defined at: %s\n", q->origin);
	fputs(b.data, stdout);
	buf_release(&b);
	return EXIT_OK;
}

/*
 * The key of everything a report is made from: the data files, every
 * file under the templates folder, the edition, and this program itself.
 * Returns 0, -1 when something cannot be read (then no run is
 * skipped), or -2 after printing an error about the templates folder
 * (a symbolic link that leads nowhere, to a folder, or outside it).
 */
static int
inputs_key(const struct options *opt, uint64_t *key)
{
	struct buf path = BUF_INIT;
	uint64_t h = HASH_INIT;
	struct stat st;
	int ret = 0, tree;
	size_t i;

	for (i = 0; model_data_files[i]; i++) {
		buf_reset(&path);
		buf_addf(&path, "%s/%s", opt->datadir, model_data_files[i]);
		h = hash_str(h, model_data_files[i]);
		ret |= hash_file(&h, path.data, 0);
	}
	/* The references list is optional: a missing one is a state too. */
	buf_reset(&path);
	buf_addf(&path, "%s/%s", opt->datadir, BIB_FILE);
	if (lstat(path.data, &st) == 0)
		ret |= hash_file(&h, path.data, 0);
	else
		h = hash_str(h, "no " BIB_FILE);
	tree = hash_tree(&h, opt->templatedir);
	if (tree == -2) {
		buf_release(&path);
		return -2;
	}
	ret |= tree;
	h = hash_bytes(h, &opt->as_of, sizeof(opt->as_of));
	h = hash_bytes(h, &opt->editions, sizeof(opt->editions));
	h = hash_str(h, VERSION);
	/*
	 * This program by identity, not content: hashing half a megabyte
	 * of code took a quarter of a millisecond, and a rebuilt program
	 * is a new file with a new time.
	 */
	if (stat("/proc/self/exe", &st)) {
		ret = -1;
	} else {
		uint64_t id[5] = { (uint64_t)st.st_dev, (uint64_t)st.st_ino,
				   (uint64_t)st.st_size,
				   (uint64_t)st.st_mtim.tv_sec,
				   (uint64_t)st.st_mtim.tv_nsec };

		h = hash_bytes(h, id, sizeof(id));
	}
	buf_release(&path);
	*key = h;
	return ret;
}

/* 1 when path exists and was modified after *t. */
static int
newer(const char *path, const struct timespec *t)
{
	struct stat st;

	return !stat(path, &st) && (st.st_mtim.tv_sec > t->tv_sec ||
				    (st.st_mtim.tv_sec == t->tv_sec &&
				     st.st_mtim.tv_nsec > t->tv_nsec));
}

/*
 * Whether a figure will probably be drawn: there is no figure cache, or
 * a data file or a figure script changed after it. Only a guess, to
 * start gnuplot early: the figure keys decide what is drawn.
 */
static int
figures_stale(const struct options *opt)
{
	struct buf path = BUF_INIT;
	struct stat st;
	struct timespec cache;
	DIR *d;
	struct dirent *e;
	size_t i;
	int stale = 0;

	buf_addf(&path, "%s/figures/.cache", opt->outdir);
	if (stat(path.data, &st)) {
		buf_release(&path);
		return 1;
	}
	cache = st.st_mtim;
	for (i = 0; model_data_files[i] && !stale; i++) {
		buf_reset(&path);
		buf_addf(&path, "%s/%s", opt->datadir, model_data_files[i]);
		stale = newer(path.data, &cache);
	}
	buf_reset(&path);
	buf_addf(&path, "%s/figures", opt->templatedir);
	d = opendir(path.data);
	while (d && !stale && (e = readdir(d))) {
		buf_reset(&path);
		buf_addf(&path, "%s/figures/%s", opt->templatedir, e->d_name);
		stale = *e->d_name != '.' && newer(path.data, &cache);
	}
	if (d)
		closedir(d);
	buf_release(&path);
	return stale;
}

/*
 * What a figure script can ask for with "# data:": each dataset with
 * what a row is and its columns, numbered as gnuplot's "using" counts
 * them, with their units; the label from data comes last.
 */
static int
cmd_datasets(const struct datasets *all)
{
	struct buf b = BUF_INIT;
	size_t i, c, w = 5;	/* "label" */

	for (i = 0; i < all->n; i++)
		for (c = 0; c < all->d[i]->ncols; c++)
			if (strlen(all->d[i]->cols[c]) > w)
				w = strlen(all->d[i]->cols[c]);
	for (i = 0; i < all->n; i++) {
		const struct dataset *d = all->d[i];

		buf_addf(&b, "%s%s.dat: %s\n", i ? "\n" : "", d->name,
			 d->what);
		for (c = 0; c < d->ncols; c++)
			buf_addf(&b, "  %2zu  %-*s  %s\n", c + 1, (int)w,
				 d->cols[c], *d->units[c] ? d->units[c] :
				 "(a number)");
		buf_addf(&b, "  %2zu  %-*s  %s\n", c + 1, (int)w, "label",
			 "(text: a name, or -)");
	}
	fputs(b.data, stdout);
	buf_release(&b);
	return EXIT_OK;
}

/*
 * The data files' columns (schema.h), as the loaders read them: each
 * file with what a row is, then each column with its kind and unit,
 * whether it is required, and what it holds.
 */
static int
cmd_tables(void)
{
	struct buf b = BUF_INIT, kind = BUF_INIT;
	size_t i, c, w = 0;

	for (i = 0; i < schema_count(); i++)
		for (c = 0; c < schema_at(i)->ncols; c++)
			if (strlen(schema_at(i)->cols[c].name) > w)
				w = strlen(schema_at(i)->cols[c].name);
	for (i = 0; i < schema_count(); i++) {
		const struct table_schema *sc = schema_at(i);

		buf_addf(&b, "%s%s: %s\n", i ? "\n" : "", sc->file, sc->what);
		for (c = 0; c < sc->ncols; c++) {
			const struct table_column *col = &sc->cols[c];

			buf_reset(&kind);
			buf_addstr(&kind, table_kind_name(col->kind));
			if (col->unit)
				buf_addf(&kind, " (%s)", col->unit);
			buf_addf(&b, "  %-*s  %-17s  %-12s  %s\n", (int)w,
				 col->name, kind.data,
				 col->flags & TABLE_COL_OPTIONAL ? "optional" :
				 col->flags & TABLE_COL_EMPTY ? "may be empty" :
				 "required", col->what);
		}
	}
	fputs(b.data, stdout);
	buf_release(&b);
	buf_release(&kind);
	return EXIT_OK;
}

/* Prints the claims audit; exit 1 when a claim drifts. */
static int
cmd_check(const struct buf *audit, int off)
{
	fputs(audit->data, stdout);
	return off ? EXIT_INPUT : EXIT_OK;
}

/* What changed from the y1 edition to the y2 edition, on stdout. */
static int
cmd_diff(const struct options *opt, int y1, int y2, struct tableset *ts)
{
	struct registry *a, *b = NULL;
	struct buf out = BUF_INIT;
	struct changes cs;

	a = report_registry(opt->datadir, y1, NULL, ts);
	if (a)
		b = report_registry(opt->datadir, y2, NULL, ts);
	if (!b) {
		registry_free(a);
		return EXIT_INPUT;
	}
	changes_compare(&cs, a, y1, b, y2, ts, opt->datadir,
			model_data_files);
	if (opt->csv)
		changes_csv(&cs, &out);
	else
		changes_text(&cs, &out);
	changes_release(&cs);
	fputs(out.data, stdout);
	registry_free(a);
	registry_free(b);
	buf_release(&out);
	return EXIT_OK;
}

/*
 * The years of the command line against the editions the data allow
 * (model_editions()): --as-of or diff before the first edition, the
 * article's year, is a usage error, named before any error of the data
 * of such an edition; diff after the newest edition too. An --as-of
 * after the data gives the newest edition, with a note. Returns EXIT_OK,
 * EXIT_USAGE, or EXIT_INPUT after errors in the data read.
 */
static int
check_years(struct options *opt, struct tableset *ts)
{
	int first, newest, i;

	if (model_editions(opt->datadir, ts, &first, &newest))
		return EXIT_INPUT;
	if (opt->as_of && opt->as_of < first) {
		diag_say("--as-of %d is before the first "
			"edition (%d, the article's year)", opt->as_of,
			first);
		return EXIT_USAGE;
	}
	for (i = 0; opt->diff[0] && i < 2; i++) {
		if (opt->diff[i] < first) {
			diag_say("'diff' %d is before the "
				"first edition (%d, the article's year)",
				opt->diff[i], first);
			return EXIT_USAGE;
		}
		if (opt->diff[i] > newest) {
			diag_say("'diff' %d is after the "
				"newest edition (%d, the newest year of the "
				"data)", opt->diff[i], newest);
			return EXIT_USAGE;
		}
	}
	if (opt->as_of > newest) {
		diag_say("note: the data end in %d; --as-of %d gives the %d "
			 "edition", newest, opt->as_of, newest);
		opt->as_of = newest;
	}
	return EXIT_OK;
}

/* Takes the value of option opt from "--opt=v" or the next argument. */
static const char *
optarg_of(int argc, char **argv, int *i, const char *arg)
{
	const char *eq = strchr(arg, '=');

	if (eq && arg[1] == '-')
		return eq + 1;
	if (*i + 1 >= argc) {
		diag_say("option '%s' needs a value", arg);
		exit(EXIT_USAGE);
	}
	return argv[++*i];
}

static int
opt_is(const char *arg, const char *s, const char *l)
{
	size_t n = strlen(l);

	return !strcmp(arg, s) || !strcmp(arg, l) ||
	       (!strncmp(arg, l, n) && arg[n] == '=');
}

int
main(int argc, char **argv)
{
	struct options opt = { .outdir = "out", .figure_timeout = 60,
			       .editions = 1, .serve = -1 };
	const char *cmd = NULL, *name = NULL, *name2 = NULL;
	struct registry *reg = NULL;
	struct site *site = NULL;
	struct buf audit = BUF_INIT;
	struct datasets ds = { 0 };
	struct tableset ts = { 0 };
	int i, ret = EXIT_INPUT, off = 0, report, count = 0, datasets;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage_text, stdout);
			return EXIT_OK;
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			puts("ultimate " VERSION);
			return EXIT_OK;
		} else if (opt_is(a, "-d", "--data")) {
			opt.datadir = optarg_of(argc, argv, &i, a);
		} else if (opt_is(a, "-t", "--templates")) {
			opt.templatedir = optarg_of(argc, argv, &i, a);
		} else if (opt_is(a, "-o", "--out")) {
			opt.outdir = optarg_of(argc, argv, &i, a);
		} else if (!strcmp(a, "--timings")) {
			opt.timings = 1;
		} else if (!strcmp(a, "--poll")) {
			opt.poll = 1;
		} else if (opt_is(a, "--serve", "--serve")) {
			const char *v = optarg_of(argc, argv, &i, a);
			char *end;
			long p = strtol(v, &end, 10);

			if (end == v || *end || p < 0 || p > 65535) {
				diag_say("--serve needs a port "
					"from 0 to 65535, got '%s'", v);
				return EXIT_USAGE;
			}
			opt.serve = (int)p;
		} else if (!strcmp(a, "--no-editions")) {
			opt.editions = 0;
		} else if (!strcmp(a, "--tables")) {
			opt.tables = 1;
		} else if (opt_is(a, "--format", "--format")) {
			const char *v = optarg_of(argc, argv, &i, a);

			if (strcmp(v, "csv") && strcmp(v, "text")) {
				diag_say("--format is 'text' "
					"or 'csv', got '%s'", v);
				return EXIT_USAGE;
			}
			opt.csv = !strcmp(v, "csv");
		} else if (opt_is(a, "--as-of", "--as-of")) {
			const char *v = optarg_of(argc, argv, &i, a);
			char *end;
			long y = strtol(v, &end, 10);

			if (end == v || *end || y < 1900 || y > 2100) {
				diag_say("--as-of needs a year "
					"from 1900 to 2100, got '%s'", v);
				return EXIT_USAGE;
			}
			opt.as_of = (int)y;
		} else if (opt_is(a, "--figure-timeout", "--figure-timeout")) {
			const char *v = optarg_of(argc, argv, &i, a);
			char *end;
			double t = strtod(v, &end);

			if (end == v || *end || !(t > 0 && t <= 86400)) {
				diag_say("--figure-timeout "
					"needs a number of seconds from 0 to "
					"86400, got '%s'", v);
				return EXIT_USAGE;
			}
			opt.figure_timeout = t;
		} else if (a[0] == '-' && a[1]) {
			diag_say("unknown option '%s'", a);
			fputs(usage_text, stderr);
			return EXIT_USAGE;
		} else if (!cmd) {
			cmd = a;
		} else if (!name) {
			name = a;
		} else if (!name2 && !strcmp(cmd, "diff")) {
			name2 = a;
		} else {
			diag_say("unexpected argument '%s'",
				a);
			return EXIT_USAGE;
		}
	}
	if (!cmd) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (strcmp(cmd, "report") && strcmp(cmd, "list") &&
	    strcmp(cmd, "check") && strcmp(cmd, "diff") &&
	    strcmp(cmd, "get") && strcmp(cmd, "explain") &&
	    strcmp(cmd, "watch") && strcmp(cmd, "datasets")) {
		diag_say("unknown command '%s'", cmd);
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	report = !strcmp(cmd, "report");
	if (!strcmp(cmd, "diff")) {
		int y[2];
		const char *v[2] = { name, name2 };

		for (i = 0; i < 2; i++) {
			char *end;
			long n = v[i] ? strtol(v[i], &end, 10) : 0;

			if (!v[i] || end == v[i] || *end || n < 1900 ||
			    n > 2100) {
				diag_say("'diff' needs two "
					"years from 1900 to 2100, the earlier "
					"first%s%s%s", v[i] ? ", got '" : "",
					v[i] ? v[i] : "", v[i] ? "'" : "");
				return EXIT_USAGE;
			}
			y[i] = (int)n;
		}
		if (y[0] >= y[1]) {
			diag_say("'diff' needs the earlier "
				"year first, got %d %d", y[0], y[1]);
			return EXIT_USAGE;
		}
		opt.diff[0] = y[0];
		opt.diff[1] = y[1];
	} else if ((!strcmp(cmd, "get") || !strcmp(cmd, "explain")) ?
		   !name : name && strcmp(cmd, "list")) {
		diag_say("'%s' %s", cmd,
			name ? "takes no argument" : "needs a quantity name");
		return EXIT_USAGE;
	}
	if (opt.tables && strcmp(cmd, "datasets")) {
		diag_say("--tables goes with 'datasets'");
		return EXIT_USAGE;
	}
	opt.datadir = input_dir(opt.datadir, "-d", "data", "ULTIMATE_DATA",
				DATADIR "/data");
	opt.templatedir = input_dir(opt.templatedir, "-t", "templates",
				    "ULTIMATE_TEMPLATES", DATADIR "/templates");
	if (!strcmp(cmd, "watch")) {
		struct watch_options wo = { opt.datadir, opt.templatedir,
					    opt.outdir, opt.poll, opt.serve };

		/* The watcher returns here in each child that builds. */
		ret = watch_run(&wo);
		if (ret != WATCH_BUILD)
			return ret;
		ret = EXIT_INPUT;
		report = 1;
	} else if (opt.poll || opt.serve >= 0) {
		diag_say("--%s is an option of 'watch'",
			opt.poll ? "poll" : "serve");
		return EXIT_USAGE;
	}
	/* Inputs are read from these folders only, links included. */
	srcfile_confine(opt.datadir);
	srcfile_confine(opt.templatedir);
	if ((opt.as_of || opt.diff[0]) && !opt.tables) {
		ret = check_years(&opt, &ts);
		if (ret != EXIT_OK) {
			count = 1;
			goto out;
		}
		ret = EXIT_INPUT;
	}

	if (report) {
		/*
		 * From here on a signal stops the run cleanly: out/ is left
		 * as it was and nothing is left behind.
		 */
		diag_catch_signals();
		timing_begin("noop");
		/*
		 * gnuplot's start-up (15 to 35 ms of loading libraries) then
		 * overlaps all the work before the figures are drawn; it is
		 * stopped if unused. Started only when the figures are known,
		 * a cold report took 104 ms instead of 86 (make bench, 9 runs,
		 * this VM): 17%.
		 */
		if (figures_stale(&opt))
			opt.early = plot_prestart("gnuplot");
		site = site_open(opt.outdir);
		if (!site) {
			timing_end();
			goto out;
		}
		/* Nothing changed since the last report: nothing to do. */
		i = inputs_key(&opt, &opt.inputs);
		if (i == -2 || diag_interrupted()) {
			timing_end();
			count = 1;
			goto out;
		}
		if (!i && site_uptodate(site, opt.inputs)) {
			timing_end();
			ret = EXIT_OK;
			goto out;
		}
		timing_end();
	}
	if (opt.diff[0]) {
		count = 1;
		ret = cmd_diff(&opt, opt.diff[0], opt.diff[1], &ts);
		goto out;
	}
	if (opt.tables) {
		ret = cmd_tables();
		goto out;
	}
	datasets = !strcmp(cmd, "datasets");
	timing_begin("model");
	reg = model_build(opt.datadir, opt.as_of, report || datasets ? &ds :
			  NULL, &ts);
	if (reg && (off = audit_run(opt.datadir, reg, &audit, &ts)) < 0) {
		registry_free(reg);
		reg = NULL;
	}
	timing_end();
	if (!reg || diag_interrupted()) {
		count = 1;
		goto out;
	}
	if (report) {
		struct report_options ro = { opt.datadir, opt.templatedir,
					     opt.editions, opt.figure_timeout,
					     opt.inputs, opt.early };

		count = 1;
		opt.early = NULL;	/* report_write() takes it */
		ret = report_write(site, reg, &ds, &ts, &ro);
	} else if (!strcmp(cmd, "list")) {
		ret = cmd_list(reg, name ? name : "");
	} else if (datasets) {
		plot_datasets(reg, &ds);
		ret = cmd_datasets(&ds);
	} else if (!strcmp(cmd, "check")) {
		ret = cmd_check(&audit, off);
	} else if (!strcmp(cmd, "get")) {
		ret = cmd_get(reg, name);
	} else {
		ret = cmd_explain(reg, name);
	}
out:
	if (diag_interrupted() && ret != EXIT_OK) {
		int sig = diag_interrupted();

		diag_say("interrupted by %s; '%s' left as it was",
			 sig == SIGINT ? "SIGINT" : sig == SIGTERM ?
			 "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "a signal",
			 opt.outdir);
		ret = 128 + sig;
	} else if (ret != EXIT_OK && (count || report) && diag_errors()) {
		diag_say("%zu error%s", diag_errors(),
			diag_errors() == 1 ? "" : "s");
	}
	plot_stop(opt.early);	/* report_write() was not reached */
	site_close(site);
	registry_free(reg);
	datasets_release(&ds);
	tableset_release(&ts);
	buf_release(&audit);
	srcfile_confine_release();
	html_release();
	if (opt.timings)
		timing_print();
	if (fflush(stdout) || ferror(stdout)) {
		perror("ultimate: error: cannot write to standard output");
		ret = EXIT_INPUT;
	}
	return ret;
}
