/*
 * The command line: parses argv, then runs the pipeline for the command
 * asked: load and model (model.c), then write (report.c) or print.
 * Holds no logic of its own beyond choosing what to run. It reads top
 * to bottom as: the options and the commands, as tables (options[],
 * commands[], from which the help is made); the steps every command
 * shares (the folders, setup(), load()); each command's handler, in
 * the order of commands[]; the parsing of the command line; main().
 */
/* getopt_long() is GNU's: declared under _GNU_SOURCE, not POSIX's. */
#define _GNU_SOURCE
#include <malloc.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "audit.h"
#include "buf.h"
#include "changes.h"
#include "dataset.h"
#include "diag.h"
#include "figdata.h"
#include "html.h"
#include "init.h"
#include "import.h"
#include "model.h"
#include "registry.h"
#include "report.h"
#include "rows.h"
#include "schema.h"
#include "serve.h"
#include "suggest.h"
#include "table.h"
#include "timing.h"
#include "watch.h"
#include "xalloc.h"
#include "banned.h"

#ifndef VERSION
#define VERSION "unknown"
#endif
#ifndef DATADIR
#define DATADIR "/usr/local/share/ultimate"
#endif

/*
 * Seconds the browser may take to print one page (report --pdf) unless
 * --figure-timeout says: a page took 10 to 17 s at a load average of 8
 * on a 2-core VM, and over 180 s at 45.
 */
#define PDF_TIMEOUT 600
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

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
	double pdf_timeout;	/* and the browser over a page */
	int poll;		/* watch: --poll */
	int serve;		/* watch: --serve PORT, or -1 */
	const char *host;	/* watch: --host ADDR, or NULL: 127.0.0.1 */
	int open;		/* watch: --open */
	int newest;		/* a watch build of the newest edition alone */
	int pdf;		/* report: --pdf */
	const char *example;	/* init: --example NAME, or NULL: the first */
};

/*
 * One run of a command: the options, the words after the command, and
 * what the pipeline made for it, released at the end of main().
 */
struct run {
	struct options opt;
	char **words;		/* the command and its arguments, in order */
	int nwords;
	char **args;		/* words + 1: the command's arguments */
	int nargs;
	struct registry *reg;
	struct buf audit;	/* the claims audit, printed by check */
	int off;		/* claims that drift */
	struct datasets ds;
	struct tableset ts;
	unsigned given;		/* the options given: OPT(O_*) */
	int count;		/* a failure ends with "N errors" */
	int watcher;		/* the watch process itself: no timings */
};

/* The commands' handlers (below, in the order of commands[]). */
static int cmd_report(struct run *r);
static int cmd_list(struct run *r);
static int cmd_get(struct run *r);
static int cmd_explain(struct run *r);
static int cmd_check(struct run *r);
static int cmd_diff(struct run *r);
static int diff_years(struct run *r);
static int cmd_watch(struct run *r);
static int cmd_datasets(struct run *r);
static int cmd_init(struct run *r);
static int cmd_import_refs(struct run *r);

/*
 * The options, in the order the help lists them. An option is taken by
 * every command (OPT_ALL) or by those that list it in their opts; the
 * others ignore it, or refuse it when it is OPT_ONLY.
 */
enum opt_id {
	O_DATA, O_TEMPLATES, O_OUT, O_AS_OF, O_NO_EDITIONS, O_FORMAT,
	O_TABLES, O_FIGURE_TIMEOUT, O_PDF, O_POLL, O_SERVE, O_HOST, O_OPEN,
	O_EXAMPLE, O_TIMINGS,
	O_HELP, O_VERSION, O_COUNT
};

#define OPT(id) (1u << (id))

enum opt_flags {
	OPT_ALL = (1 << 0),	/* every command takes it */
	OPT_ONLY = (1 << 1),	/* an error with a command that does not */
};

static const struct opt {
	const char *name;	/* "--data" */
	int shortname;		/* 'd', or 0 */
	const char *arg;	/* the value's name in the help; NULL: none */
	unsigned flags;		/* enum opt_flags */
	const char *help;	/* one line, wrapped by the help */
} options[O_COUNT] = {
	[O_DATA] = { "--data", 'd', "DIR", OPT_ALL,
		"data folder (default: $ULTIMATE_DATA if set, else ./data "
		"if present, else data/ of the share folder: $ULTIMATE_SHARE "
		"if set, else " DATADIR ")" },
	[O_TEMPLATES] = { "--templates", 't', "DIR", OPT_ALL,
		"templates folder (default: $ULTIMATE_TEMPLATES if set, else "
		"./templates if present, else templates/ of the share "
		"folder)" },
	[O_OUT] = { "--out", 'o', "DIR", 0,
		"output folder (default: out)" },
	[O_AS_OF] = { "--as-of", 0, "YEAR", OPT_ALL,
		"the edition of YEAR: leave out data rows dated after it "
		"(default: the newest year in the data); report then writes "
		"the editions up to YEAR; no earlier than the first edition, "
		"and a year after the data gives their newest edition (with "
		"a note)" },
	[O_NO_EDITIONS] = { "--no-editions", 0, NULL, 0,
		"the one edition only (no editions/, no changes.html)" },
	[O_FORMAT] = { "--format", 0, "text|csv", 0,
		"for people (default) or for scripts" },
	[O_TABLES] = { "--tables", 0, NULL, OPT_ONLY,
		"print the data files' columns instead, as the loader reads "
		"them" },
	[O_FIGURE_TIMEOUT] = { "--figure-timeout", 0, "SECONDS", 0,
		"stop gnuplot after this long (default 60); with --pdf, "
		"the browser too over one page (default 600)" },
	[O_PDF] = { "--pdf", 0, NULL, OPT_ONLY,
		"also print each edition's report to report.pdf beside it "
		"(headless Chromium: $ULTIMATE_CHROMIUM, else chromium)" },
	[O_POLL] = { "--poll", 0, NULL, OPT_ONLY,
		"look at the files every 300 ms instead of being told of "
		"changes by the system (inotify)" },
	[O_SERVE] = { "--serve", 0, "PORT", OPT_ONLY,
		"also serve the output folder at http://127.0.0.1:PORT/ "
		"(0: a free port); the page reloads itself after each "
		"build that changed it and shows a failed build's errors" },
	[O_HOST] = { "--host", 0, "ADDR", OPT_ONLY,
		"with --serve: listen on ADDR (an IPv4 or IPv6 address, or a "
		"name) instead of 127.0.0.1, for another device on the "
		"network; anyone who can reach it can read the preview" },
	[O_OPEN] = { "--open", 0, NULL, OPT_ONLY,
		"with --serve: open the preview in the browser ($BROWSER, "
		"else xdg-open) once the first build is done" },
	[O_EXAMPLE] = { "--example", 0, "NAME", OPT_ONLY,
		"the project to start from: minimal (the default: a small "
		"report of one's own, to change) or lloyd (the whole report "
		"on the physical limits to computation)" },
	[O_TIMINGS] = { "--timings", 0, NULL, OPT_ALL,
		"print the time of each stage, and the program's own time "
		"and CPU (gnuplot apart), to stderr" },
	[O_HELP] = { "--help", 'h', NULL, OPT_ALL, "show this help" },
	[O_VERSION] = { "--version", 'V', NULL, OPT_ALL,
		"show the version" },
};

enum cmd_flags {
	RUN_SETUP = (1 << 0),	/* setup() before the handler */
};

/*
 * The commands, in the order the help lists them (git.c's commands[]):
 * a new command is an entry here and its handler. A handler runs once
 * its arguments and options are checked and the folders chosen, and
 * returns the exit status.
 */
static const struct cmd {
	const char *name;
	int (*run)(struct run *r);
	const char *args;	/* their names in the help, or NULL */
	int min, max;		/* how many arguments it takes */
	const char *need;	/* what a missing one is, for the error */
	int (*check)(struct run *r);	/* the arguments; NULL: any */
	unsigned opts;		/* its own options: OPT(O_*) */
	unsigned flags;		/* enum cmd_flags */
	const char *help;	/* one line, wrapped by the help */
} commands[] = {
	{ .name = "report", .run = cmd_report, .flags = RUN_SETUP,
	  .opts = OPT(O_OUT) | OPT(O_NO_EDITIONS) | OPT(O_FIGURE_TIMEOUT) |
	  OPT(O_PDF),
	  .help = "write the site: index.html (the report), quantities.html "
	  "and quantities/, data.html, quantities.csv/json, every edition "
	  "since the first in editions/YEAR/, and changes.html" },
	{ .name = "list", .run = cmd_list, .flags = RUN_SETUP,
	  .args = "[PREFIX]", .max = 1,
	  .help = "print every quantity, or those whose name starts with "
	  "PREFIX (laptop.): name, value, unit" },
	{ .name = "get", .run = cmd_get, .flags = RUN_SETUP,
	  .args = "NAME", .min = 1, .max = 1, .need = "a quantity name",
	  .help = "print the value of NAME alone (for scripts)" },
	{ .name = "explain", .run = cmd_explain, .flags = RUN_SETUP,
	  .args = "NAME", .min = 1, .max = 1, .need = "a quantity name",
	  .help = "print the formula, inputs, value and source of NAME" },
	{ .name = "check", .run = cmd_check, .flags = RUN_SETUP,
	  .help = "audit the printed figures the project quotes "
	  "(data/claims.csv); exit 1 if one drifts" },
	{ .name = "diff", .run = cmd_diff, .flags = RUN_SETUP,
	  .args = "YEAR1 YEAR2", .min = 2, .max = 2,
	  .need = "two years from 1900 to 2100, the earlier first",
	  .check = diff_years, .opts = OPT(O_FORMAT),
	  .help = "print every quantity that changed from the YEAR1 edition "
	  "to the YEAR2 edition, and the data rows that caused it (both "
	  "editions: from the first edition's year to the newest year of "
	  "the data)" },
	/* No RUN_SETUP: each build does it, in its own process. */
	{ .name = "watch", .run = cmd_watch,
	  .opts = OPT(O_OUT) | OPT(O_NO_EDITIONS) | OPT(O_FIGURE_TIMEOUT) |
	  OPT(O_POLL) | OPT(O_SERVE) | OPT(O_HOST) | OPT(O_OPEN),
	  .help = "write the site as report does, then again each time a "
	  "file in the data or templates folder changes (one line each); "
	  "Ctrl-C stops" },
	{ .name = "datasets", .run = cmd_datasets, .flags = RUN_SETUP,
	  .opts = OPT(O_TABLES),
	  .help = "print the datasets a figure script can read ('# data:' "
	  "in templates/figures/*.gp), each with its columns and their "
	  "units" },
	/* No RUN_SETUP: it reads no data, only the share folder. */
	{ .name = "init", .run = cmd_init, .args = "DIR", .min = 1,
	  .max = 1, .need = "a folder for the new project",
	  .opts = OPT(O_EXAMPLE),
	  .help = "start a new project in DIR (new, or an empty folder), "
	  "copied from an example of the share folder ($ULTIMATE_SHARE if "
	  "set, else " DATADIR "): by default a small report to make one's "
	  "own (its README.md says what to try first), with the reference "
	  "of the language, docs/templates.md" },
	{ .name = "import-refs", .run = cmd_import_refs, .args = "FILE",
	  .min = 1, .max = 1, .need = "a BibTeX or CSL-JSON file",
	  .help = "print FILE, a reference list exported as BibTeX (.bib) "
	  "or CSL-JSON (.json), as the rows of data/references.csv, "
	  "checked as that file is" },
};


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

/*
 * The years of the command line against the editions the data allow
 * (model_editions()): --as-of or diff before the first edition
 * (edition.first), is a usage error, named before any error of the data
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
		diag_say("--as-of %d is before the first edition (%d)",
			 opt->as_of, first);
		return EXIT_USAGE;
	}
	for (i = 0; opt->diff[0] && i < 2; i++) {
		if (opt->diff[i] < first) {
			diag_say("'diff' %d is before the first edition "
				 "(%d)", opt->diff[i], first);
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

/*
 * Before a command reads anything: inputs are read from their folders
 * only, symbolic links included, and the years asked are checked
 * against the editions of the data (check_years()). Returns EXIT_OK,
 * EXIT_USAGE or EXIT_INPUT.
 */
static int
setup(struct run *r)
{
	int ret = EXIT_OK;

	srcfile_confine(r->opt.datadir);
	srcfile_confine(r->opt.templatedir);
	if ((r->opt.as_of || r->opt.diff[0]) && !r->opt.tables) {
		ret = check_years(&r->opt, &r->ts);
		if (ret != EXIT_OK)
			r->count = 1;
	}
	return ret;
}

/*
 * The model of the edition asked and the claims audit, into r->reg,
 * r->audit and r->off; the figures' datasets into r->ds too when
 * datasets is set. Returns 0, or -1 after errors or a signal.
 */
static int
load(struct run *r, int datasets)
{
	timing_begin("model");
	r->reg = model_build(r->opt.datadir, r->opt.as_of,
			     datasets ? &r->ds : NULL, &r->ts);
	if (r->reg && (r->off = audit_run(r->opt.datadir, r->reg, &r->audit,
					  &r->ts)) < 0) {
		registry_free(r->reg);
		r->reg = NULL;
	}
	timing_end();
	if (!r->reg || diag_interrupted()) {
		r->count = 1;
		return -1;
	}
	return 0;
}

/*
 * report: the site into the output folder, unless nothing it is made
 * from changed since the last one (report.h).
 */
static int
cmd_report(struct run *r)
{
	const struct options *opt = &r->opt;
	const struct report_options ro = {
		.datadir = opt->datadir, .templatedir = opt->templatedir,
		.outdir = opt->outdir, .as_of = opt->as_of,
		.editions = opt->editions,
		.figure_timeout = opt->figure_timeout,
		.newest = opt->newest, .pdf = opt->pdf,
		.pdf_timeout = opt->pdf_timeout,
	};

	r->count = 1;
	return report_run(&ro, &r->ts);
}

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

/* list [PREFIX]: every quantity whose name starts with PREFIX, or all. */
static int
cmd_list(struct run *r)
{
	const char *prefix = r->nargs ? r->args[0] : "";
	const struct registry *reg;
	struct buf line = BUF_INIT;
	size_t i, w = 0, plen = strlen(prefix), n = 0;

	if (load(r, 0))
		return EXIT_INPUT;
	reg = r->reg;
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

/* get NAME: the value alone, for scripts. */
static int
cmd_get(struct run *r)
{
	const struct quantity *q;
	struct buf b = BUF_INIT;

	if (load(r, 0) || !(q = lookup(r->reg, r->args[0])))
		return EXIT_INPUT;
	add_value(&b, q);
	puts(b.data);
	buf_release(&b);
	return EXIT_OK;
}

/* explain NAME: the value, formula, inputs and source. */
static int
cmd_explain(struct run *r)
{
	const struct quantity *q;
	struct buf b = BUF_INIT;
	size_t i, w = 0;

	if (load(r, 0) || !(q = lookup(r->reg, r->args[0])))
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
		const struct quantity *in = registry_get(r->reg,
							 q->inputs[i]);

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

/* check: prints the claims audit; exit 1 when a claim drifts. */
static int
cmd_check(struct run *r)
{
	if (load(r, 0))
		return EXIT_INPUT;
	fputs(r->audit.data, stdout);
	return r->off ? EXIT_INPUT : EXIT_OK;
}

/* diff: what changed from the y1 edition to the y2 edition, on stdout. */
static int
cmd_diff(struct run *r)
{
	const struct options *opt = &r->opt;
	int y1 = opt->diff[0], y2 = opt->diff[1];
	struct tableset *ts = &r->ts;
	struct registry *a, *b = NULL;
	struct buf out = BUF_INIT;
	struct changes cs;
	const char **files;

	r->count = 1;
	a = report_registry(opt->datadir, y1, NULL, ts);
	if (a)
		b = report_registry(opt->datadir, y2, NULL, ts);
	if (!b) {
		registry_free(a);
		return EXIT_INPUT;
	}
	/* Rows added to any file of the catalogue are causes. */
	files = schema_files(ts, opt->datadir);
	changes_compare(&cs, a, y1, b, y2, ts, opt->datadir, files);
	free(files);
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

/* diff YEAR1 YEAR2: the two years into r->opt.diff. Returns 0 or -1. */
static int
diff_years(struct run *r)
{
	int i;

	for (i = 0; i < 2; i++) {
		const char *v = r->args[i];
		char *end;
		long n = strtol(v, &end, 10);

		if (end == v || *end || n < 1900 || n > 2100) {
			diag_say("'diff' needs two years from 1900 to 2100, "
				 "the earlier first, got '%s'", v);
			return -1;
		}
		r->opt.diff[i] = (int)n;
	}
	if (r->opt.diff[0] >= r->opt.diff[1]) {
		diag_say("'diff' needs the earlier year first, got %d %d",
			 r->opt.diff[0], r->opt.diff[1]);
		return -1;
	}
	return 0;
}

/*
 * watch: the watcher, which returns only at its end, and in each child
 * that builds: that child then runs report.
 */
static int
cmd_watch(struct run *r)
{
	struct watch_options wo = { r->opt.datadir, r->opt.templatedir,
				    r->opt.outdir, r->opt.poll, r->opt.serve,
				    r->opt.host, r->opt.editions, r->opt.open };
	int ret;

	if ((r->opt.host || r->opt.open) && r->opt.serve < 0) {
		diag_say("%s is an option of 'watch --serve'",
			 r->opt.host ? "--host" : "--open");
		return EXIT_USAGE;
	}
	ret = watch_run(&wo);
	if (ret != WATCH_BUILD && ret != WATCH_BUILD_NEWEST) {
		r->watcher = 1;
		return ret;
	}
	r->opt.newest = ret == WATCH_BUILD_NEWEST;
	ret = setup(r);
	return ret == EXIT_OK ? cmd_report(r) : ret;
}

/*
 * The data files' columns (schema.h), as the loaders read them: each
 * file with what a row is, then each column with its kind and unit,
 * whether it is required, and what it holds; the files of the catalogue
 * (data/schema.csv), then the catalogue's own.
 */
static int
print_tables(struct run *r)
{
	struct buf b = BUF_INIT, kind = BUF_INIT;
	const struct schema_file *files;
	const struct table_schema **all;
	size_t i, c, n, w = 0;

	if (schema_catalogue(&r->ts, r->opt.datadir, &files, &n))
		return EXIT_INPUT;
	all = xcalloc(n + 1, sizeof(*all));
	for (i = 0; i < n; i++)
		all[i] = &files[i].s;
	all[n++] = schema_self();
	for (i = 0; i < n; i++)
		for (c = 0; c < all[i]->ncols; c++)
			if (strlen(all[i]->cols[c].name) > w)
				w = strlen(all[i]->cols[c].name);
	for (i = 0; i < n; i++) {
		const struct table_schema *sc = all[i];

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
	free(all);
	buf_release(&b);
	buf_release(&kind);
	return EXIT_OK;
}

/*
 * datasets: what a figure script can ask for with "# data:": each
 * dataset with what a row is and its columns, numbered as gnuplot's
 * "using" counts them, with their units; the label from data comes
 * last. With --tables, the data files' columns instead.
 */
static int
cmd_datasets(struct run *r)
{
	const struct datasets *all = &r->ds;
	struct buf b = BUF_INIT;
	size_t i, c, w = 5;	/* "label" */

	if (r->opt.tables)
		return print_tables(r);
	if (load(r, 1))
		return EXIT_INPUT;
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

/* init DIR: a new project from the installed share folder (init.c). */
static int
cmd_init(struct run *r)
{
	const char *why, *share = init_share(&why);

	return init_project(share, why, r->args[0], r->opt.example ?
			    r->opt.example : init_example(0)) ?
	       EXIT_INPUT : EXIT_OK;
}

/*
 * import-refs FILE: a BibTeX or CSL-JSON export as the rows of
 * references.csv on stdout; nothing on stdout when FILE has an error.
 */
static int
cmd_import_refs(struct run *r)
{
	struct buf b = BUF_INIT;
	int ret = EXIT_INPUT;

	if (!import_refs(r->args[0], &b)) {
		fwrite(b.data, 1, b.len, stdout);
		ret = EXIT_OK;
	}
	buf_release(&b);
	return ret;
}

/* The key getopt_long() returns for option id: its letter, or above. */
static int
key_of(size_t id)
{
	return options[id].shortname ? options[id].shortname :
	       256 + (int)id;
}

/* The option of a key of getopt_long(), or -1. */
static int
id_of(int key)
{
	size_t i;

	for (i = 0; i < O_COUNT; i++)
		if (key_of(i) == key)
			return (int)i;
	return -1;
}

/*
 * The commands that take option id, each between quote and quote, joined
 * by ", " and the last by last.
 */
static void
add_takers(struct buf *b, size_t id, const char *quote, const char *last)
{
	size_t i, n = 0, k = 0;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		n += !!(commands[i].opts & OPT(id));
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (!(commands[i].opts & OPT(id)))
			continue;
		if (k++)
			buf_addstr(b, k == n ? last : ", ");
		buf_addf(b, "%s%s%s", quote, commands[i].name, quote);
	}
}

#define HELP_INDENT 18
#define HELP_WIDTH 72

/*
 * One entry of the help: "  left  text", text wrapped at HELP_WIDTH
 * columns under column HELP_INDENT.
 */
static void
add_item(struct buf *b, const char *left, const char *text)
{
	size_t col = 2 + strlen(left), len;
	int first = 1;

	buf_addf(b, "  %s", left);
	do
		buf_addch(b, ' ');
	while (++col < HELP_INDENT || b->data[b->len - 2] != ' ');
	while (*text) {
		len = strcspn(text, " ");
		if (!first && col + 1 + len > HELP_WIDTH) {
			buf_addf(b, "\n%*s", HELP_INDENT, "");
			col = HELP_INDENT;
		} else if (!first) {
			buf_addch(b, ' ');
			col++;
		}
		buf_add(b, text, len);
		col += len;
		first = 0;
		text += len;
		text += strspn(text, " ");
	}
	buf_addch(b, '\n');
}

/* The help, made from commands[] and options[], to fp. */
static void
usage(FILE *fp)
{
	struct buf b = BUF_INIT, left = BUF_INIT, text = BUF_INIT;
	size_t i;

	BUF_ADDLIT(&b, "usage: ultimate [options] <command> [arguments]\n"
		   "\n"
		   "A literate report engine: computes the quantities a "
		   "project's model\n"
		   "document (data/model.md) defines from the CSV files of "
		   "its data folder,\n"
		   "and writes its report, every edition, as a static "
		   "site.\n"
		   "\n"
		   "commands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		buf_reset(&left);
		buf_addstr(&left, commands[i].name);
		if (commands[i].args)
			buf_addf(&left, " %s", commands[i].args);
		add_item(&b, left.data, commands[i].help);
	}
	BUF_ADDLIT(&b, "\noptions:\n");
	for (i = 0; i < O_COUNT; i++) {
		const struct opt *o = &options[i];

		buf_reset(&left);
		buf_reset(&text);
		if (o->shortname)
			buf_addf(&left, "-%c, ", o->shortname);
		buf_addstr(&left, o->name);
		if (o->arg)
			buf_addf(&left, " %s", o->arg);
		if (!(o->flags & OPT_ALL)) {
			add_takers(&text, i, "", ", ");
			BUF_ADDLIT(&text, ": ");
		}
		buf_addstr(&text, o->help);
		add_item(&b, left.data, text.data);
	}
	BUF_ADDLIT(&b, "\n"
		   "exit status:\n"
		   "  0               success\n"
		   "  1               bad input: data, templates or an unknown "
		   "name;\n"
		   "                  for check, a claim that drifts\n"
		   "  2               bad command line\n"
		   "  3               an external tool (gnuplot) is missing or "
		   "failed\n"
		   "  128+N           stopped by signal N (130: Ctrl-C)\n");
	fputs(b.data, fp);
	buf_release(&b);
	buf_release(&left);
	buf_release(&text);
}

/*
 * The error for arg, an option getopt_long() refused (c: '?' or ':',
 * key: its optopt): a value missing, or given to an option that takes
 * none, an ambiguous abbreviation, or an unknown option with the
 * closest ones and the help. Returns -1.
 */
static int
bad_option(const char *arg, int c, int key)
{
	int id = key ? id_of(key) : -1, islong = arg[1] == '-';
	size_t len = strcspn(arg, "="), i, n = 0;
	const char *near[O_COUNT];
	char *name = xstrndup(arg, len);
	struct buf hint = BUF_INIT;
	struct suggest s;

	if (c == ':') {
		diag_say("option '%s' needs a value",
			 islong && id >= 0 ? options[id].name : arg);
		goto out;
	}
	if (id >= 0) {
		diag_say("option '%s' takes no value", options[id].name);
		goto out;
	}
	for (i = 0; islong && len > 2 && i < O_COUNT; i++)
		if (!strncmp(options[i].name, name, len))
			near[n++] = options[i].name;
	if (n > 1) {
		BUF_ADDLIT(&hint, "; could be ");
		for (i = 0; i < n; i++)
			buf_addf(&hint, "%s'%s'", i ? (i + 1 == n ? " or " :
						     ", ") : "", near[i]);
		diag_say("option '%s' is ambiguous%s", name, hint.data);
		goto out;
	}
	/* Names are compared without their "--": "--frob" is not "--poll". */
	n = 0;
	if (islong) {
		suggest_init(&s, name + 2, near, 3);
		for (i = 0; i < O_COUNT; i++)
			suggest_add(&s, options[i].name + 2);
		n = suggest_end(&s);
	}
	for (i = 0; i < n; i++)
		near[i] -= 2;	/* back to the "--" of options[].name */
	suggest_hint(&hint, near, n);
	diag_say("unknown option '%s'%s", islong ? name : arg, hint.data);
	usage(stderr);
out:
	free(name);
	buf_release(&hint);
	return -1;
}

/*
 * Whether init has an example called name: 0, or -1 after a usage error
 * with the closest names and every name.
 */
static int
check_example(const char *name)
{
	const char *near[3], *e;
	struct buf hint = BUF_INIT, all = BUF_INIT;
	struct suggest s;
	size_t i;

	for (i = 0; (e = init_example(i)); i++)
		if (!strcmp(e, name))
			return 0;
	suggest_init(&s, name, near, ARRAY_SIZE(near));
	for (i = 0; (e = init_example(i)); i++) {
		suggest_add(&s, e);
		buf_addf(&all, "%s%s", i ? ", " : "", e);
	}
	suggest_hint(&hint, near, suggest_end(&s));
	diag_say("unknown example '%s'%s (the examples: %s)", name,
		 hint.data, all.data);
	buf_release(&hint);
	buf_release(&all);
	return -1;
}

/*
 * Option id with its value v (NULL: none) into r. Returns 0, 1 after
 * printing the help or the version, or -1 after a usage error.
 */
static int
set_option(struct run *r, enum opt_id id, const char *v)
{
	struct options *opt = &r->opt;
	struct buf why = BUF_INIT;
	char *end;
	double d;
	long l;

	r->given |= OPT(id);
	switch (id) {
	case O_DATA:
		opt->datadir = v;
		return 0;
	case O_TEMPLATES:
		opt->templatedir = v;
		return 0;
	case O_OUT:
		opt->outdir = v;
		return 0;
	case O_AS_OF:
		l = strtol(v, &end, 10);
		if (end == v || *end || l < 1900 || l > 2100) {
			diag_say("--as-of needs a year from 1900 to 2100, "
				 "got '%s'", v);
			return -1;
		}
		opt->as_of = (int)l;
		return 0;
	case O_NO_EDITIONS:
		opt->editions = 0;
		return 0;
	case O_FORMAT:
		if (strcmp(v, "csv") && strcmp(v, "text")) {
			diag_say("--format is 'text' or 'csv', got '%s'", v);
			return -1;
		}
		opt->csv = !strcmp(v, "csv");
		return 0;
	case O_TABLES:
		opt->tables = 1;
		return 0;
	case O_FIGURE_TIMEOUT:
		d = strtod(v, &end);
		if (end == v || *end || !(d > 0 && d <= 86400)) {
			diag_say("--figure-timeout needs a number of seconds "
				 "from 0 to 86400, got '%s'", v);
			return -1;
		}
		opt->figure_timeout = opt->pdf_timeout = d;
		return 0;
	case O_POLL:
		opt->poll = 1;
		return 0;
	case O_PDF:
		opt->pdf = 1;
		return 0;
	case O_SERVE:
		l = strtol(v, &end, 10);
		if (end == v || *end || l < 0 || l > 65535) {
			diag_say("--serve needs a port from 0 to 65535, got "
				 "'%s'", v);
			return -1;
		}
		opt->serve = (int)l;
		return 0;
	case O_HOST:
		if (serve_check_host(v, &why)) {
			diag_say("--host needs an address to listen on "
				 "(127.0.0.1, ::1, 0.0.0.0, a host name), got "
				 "'%s': %s", v, why.data);
			buf_release(&why);
			return -1;
		}
		opt->host = v;
		return 0;
	case O_OPEN:
		opt->open = 1;
		return 0;
	case O_EXAMPLE:
		return check_example(v) ? -1 : (opt->example = v, 0);
	case O_TIMINGS:
		opt->timings = 1;
		return 0;
	case O_HELP:
		usage(stdout);
		return 1;
	case O_VERSION:
		puts("ultimate " VERSION);
		return 1;
	case O_COUNT:
		break;
	}
	BUG("option %d", (int)id);
}

/*
 * The options, before and after the command, into r->opt, and the
 * words around them, in order, into r->words. Returns 0, 1 after
 * printing the help or the version, or -1 after a usage error.
 */
static int
parse_options(int argc, char **argv, struct run *r)
{
	struct option longopts[O_COUNT + 1];
	struct buf shorts = BUF_INIT;
	size_t i;
	int c, at, ret = 0;

	memset(longopts, 0, sizeof(longopts));
	/*
	 * "-": each word comes back in its place, as option 1, whatever
	 * POSIXLY_CORRECT says; ":": a missing value is ':', not '?'.
	 */
	BUF_ADDLIT(&shorts, "-:");
	for (i = 0; i < O_COUNT; i++) {
		longopts[i].name = options[i].name + 2;
		longopts[i].has_arg = options[i].arg ? required_argument :
				      no_argument;
		longopts[i].val = key_of(i);
		if (options[i].shortname)
			buf_addf(&shorts, "%c%s", options[i].shortname,
				 options[i].arg ? ":" : "");
	}
	r->words = xcalloc((size_t)argc, sizeof(*r->words));
	opterr = 0;	/* the messages are ours: bad_option() */
	while (!ret) {
		/* The argument looked at: no word is moved ("-"). */
		at = optind;
		c = getopt_long(argc, argv, shorts.data, longopts, NULL);
		if (c == -1)
			break;
		if (c == 1)
			r->words[r->nwords++] = optarg;
		else if (c == '?' || c == ':')
			ret = bad_option(argv[at], c, optopt);
		else if (id_of(c) >= 0)
			ret = set_option(r, (enum opt_id)id_of(c), optarg);
		else
			BUG("getopt_long() returned %d", c);
	}
	/* Words only after "--". */
	while (!ret && optind < argc)
		r->words[r->nwords++] = argv[optind++];
	buf_release(&shorts);
	return ret;
}

/*
 * The command the words name, once its arguments and the options given
 * are checked. Returns NULL after a usage error.
 */
static const struct cmd *
find_command(struct run *r)
{
	const struct cmd *cmd = NULL;
	const char *near[3];
	struct buf hint = BUF_INIT;
	struct suggest s;
	size_t i, n;

	if (!r->nwords) {
		usage(stderr);
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(commands) && !cmd; i++)
		if (!strcmp(commands[i].name, r->words[0]))
			cmd = &commands[i];
	if (!cmd) {
		suggest_init(&s, r->words[0], near, ARRAY_SIZE(near));
		for (i = 0; i < ARRAY_SIZE(commands); i++)
			suggest_add(&s, commands[i].name);
		n = suggest_end(&s);
		suggest_hint(&hint, near, n);
		diag_say("unknown command '%s'%s", r->words[0], hint.data);
		usage(stderr);
		goto out;
	}
	r->args = r->words + 1;
	r->nargs = r->nwords - 1;
	if (r->nargs > cmd->max) {
		if (cmd->max)
			diag_say("unexpected argument '%s'",
				 r->args[cmd->max]);
		else
			diag_say("'%s' takes no argument", cmd->name);
		cmd = NULL;
	} else if (r->nargs < cmd->min) {
		diag_say("'%s' needs %s", cmd->name, cmd->need);
		cmd = NULL;
	} else if (cmd->check && cmd->check(r)) {
		cmd = NULL;
	}
	for (i = 0; cmd && i < O_COUNT; i++) {
		if (!(options[i].flags & OPT_ONLY) || !(r->given & OPT(i)) ||
		    cmd->opts & OPT(i))
			continue;
		buf_reset(&hint);
		add_takers(&hint, i, "'", " or ");
		diag_say("%s is an option of %s", options[i].name, hint.data);
		cmd = NULL;
	}
out:
	buf_release(&hint);
	return cmd;
}

int
main(int argc, char **argv)
{
	struct run r = { .opt = { .outdir = "out", .figure_timeout = 60,
				  .pdf_timeout = PDF_TIMEOUT, .editions = 1,
				  .serve = -1 },
			 .audit = BUF_INIT };
	const struct cmd *cmd = NULL;
	struct buf installed_data = BUF_INIT, installed_templates = BUF_INIT;
	const char *share, *why;
	int ret;

	/*
	 * Memory freed stays with the process, and large blocks come from
	 * the heap: glibc's defaults give a block of 128 KiB or more its
	 * own mapping and return the heap's top beyond 128 KiB, so that the
	 * pages, figure data and cmark-gfm trees of every edition were
	 * mapped, faulted in and unmapped again and again (every edition:
	 * 12,297 -> 8,388 page faults, 350 -> 297 ms of the program's own
	 * time, the pages stage 108 -> 60 ms; one edition: see
	 * docs/bench.md). 32 MiB is the most M_MMAP_THRESHOLD takes; a
	 * larger block (a history of a million rows) is still mapped.
	 */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	ret = parse_options(argc, argv, &r);
	if (!ret && !(cmd = find_command(&r)))
		ret = -1;
	if (ret) {
		ret = ret < 0 ? EXIT_USAGE : EXIT_OK;
		goto out;
	}
	/* The installed copy: the share folder init copies from too. */
	share = init_share(&why);
	buf_addf(&installed_data, "%s/data", share);
	buf_addf(&installed_templates, "%s/templates", share);
	r.opt.datadir = input_dir(r.opt.datadir, "-d", "data",
				  "ULTIMATE_DATA", installed_data.data);
	r.opt.templatedir = input_dir(r.opt.templatedir, "-t", "templates",
				      "ULTIMATE_TEMPLATES",
				      installed_templates.data);
	ret = cmd->flags & RUN_SETUP ? setup(&r) : EXIT_OK;
	if (ret == EXIT_OK)
		ret = cmd->run(&r);
	if (diag_interrupted() && ret != EXIT_OK) {
		int sig = diag_interrupted();

		diag_say("interrupted by %s; '%s' left as it was",
			 sig == SIGINT ? "SIGINT" : sig == SIGTERM ?
			 "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "a signal",
			 r.opt.outdir);
		ret = 128 + sig;
	} else if (ret != EXIT_OK && r.count && diag_errors()) {
		diag_say("%zu error%s", diag_errors(),
			 diag_errors() == 1 ? "" : "s");
	}
	if (r.opt.timings && !r.watcher)
		timing_print();
out:
	registry_free(r.reg);
	datasets_release(&r.ds);
	tableset_release(&r.ts);
	buf_release(&r.audit);
	free(r.words);
	buf_release(&installed_data);
	buf_release(&installed_templates);
	srcfile_confine_release();
	html_release();
	if (fflush(stdout) || ferror(stdout)) {
		perror("ultimate: error: cannot write to standard output");
		ret = EXIT_INPUT;
	}
	return ret;
}
